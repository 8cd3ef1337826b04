package io.lakehouse.bench;

/**
 * One cell of the bar's table: a figure (P1 … P11) of one service, its target, the value measured and the verdict.
 * {@code wallClock} marks values that depend on the machine's speed: measured while other work kept the machine busy
 * (a load average above the number of cores before the stack started), their verdict is printed as provisional (the
 * lead re-measures them on an idle machine). The stack's own load (2–12 while a benchmark drives it) does not count:
 * it is part of what is measured. {@code load} is the 1-minute load average when the row was measured, for the reader.
 */
record BarRow(String figure, String service, String what, String target, String measured, Boolean met,
    boolean wallClock, String load) {

  static String header() {
    return "| figure | service | what | target | measured | verdict | load avg (1 min) |\n"
        + "|---|---|---|---|---|---|---:|";
  }

  /** @param othersLoad the load average of the machine before the stack started; negative when unknown (then the row's) */
  String markdown(double cores, double othersLoad) {
    String verdict = met == null ? "–" : met ? "met" : "**missed**";
    if (met != null && wallClock && (othersLoad >= 0 ? othersLoad : Double.parseDouble(load)) > cores) {
      verdict += " (under load: not a verdict)";
    }
    return "| " + figure + " | " + service + " | " + what + " | " + target + " | " + measured + " | " + verdict
        + " | " + load + " |";
  }

  /** The 1-minute load average now. */
  static String loadNow() {
    return Proc.loadAverage().split(" ")[0];
  }
}
