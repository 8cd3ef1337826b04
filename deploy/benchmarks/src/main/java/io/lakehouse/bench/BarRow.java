package io.lakehouse.bench;

/**
 * One cell of the bar's table: a figure (P1 … P11) of one service, its target, the value measured and the verdict.
 * {@code wallClock} marks values that depend on the machine's speed: measured with the load average above the number
 * of cores, their verdict is printed as provisional (the lead re-measures them on an idle machine).
 */
record BarRow(String figure, String service, String what, String target, String measured, Boolean met,
    boolean wallClock, String load) {

  static String header() {
    return "| figure | service | what | target | measured | verdict | load avg (1 min) |\n"
        + "|---|---|---|---|---|---|---:|";
  }

  String markdown(double cores) {
    String verdict = met == null ? "–" : met ? "met" : "**missed**";
    if (met != null && wallClock && Double.parseDouble(load) > cores) {
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
