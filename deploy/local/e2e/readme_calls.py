#!/usr/bin/env python3
"""The API calls of the README's demo, as the README writes them, for deploy/local/e2e/demo.sh.

Reads every ```bash block of README.md, joins each command's lines (backslash continuations and
multi-line quoted JSON), and keeps the `curl` commands: method (-X, GET by default), URL as written
(`$API/namespaces/demo/...`) and body (-d). demo.sh sends exactly these bodies to exactly these paths,
so a README whose JSON or path drifted from the services fails the check instead of misleading readers.

  readme_calls.py README.md METHOD URL [N]   prints the body of the N-th (default 1) such call
                                             (empty when it has none); exit 1 when the README has
                                             no such call
  readme_calls.py README.md --list           prints every call: METHOD URL BODY (one line each)
"""
import re
import shlex
import sys

# A URL as the README writes it: $API/..., "$SPARK/...?tail=50", http://127.0.0.1:56443/... (not "${auth[@]}").
URL = re.compile(r"^(\$[A-Z_]+|https?://)")


def bash_blocks(text):
    return re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)


def commands(block):
    """Complete shell commands of a block: lines joined until the quotes close and no '\\' ends them."""
    pending = ""
    for line in block.splitlines():
        pending = pending + "\n" + line if pending else line
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # an open quote: a JSON body spanning lines
            continue
        yield pending
        pending = ""


def curl_call(command):
    """(METHOD, URL, BODY) of a command starting with curl, else None."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    if not words or words[0] != "curl":
        return None
    method, url, body, i = "GET", None, "", 1
    while i < len(words):
        word = words[i]
        if word == "|":
            break
        if word == "-X":
            method, i = words[i + 1], i + 2
            continue
        if word == "-d":
            body, i = words[i + 1], i + 2
            continue
        if word == "-H":
            i += 2
            continue
        if URL.match(word):
            url = url or word
        i += 1
    return (method, url, body) if url else None


def calls(readme):
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    for block in bash_blocks(text):
        for command in commands(block):
            call = curl_call(command.strip())
            if call:
                yield call


def main(argv):
    if len(argv) == 3 and argv[2] == "--list":
        for method, url, body in calls(argv[1]):
            print(method, url, " ".join(body.split()))
        return 0
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    method, url = argv[2], argv[3]
    wanted = int(argv[4]) if len(argv) == 5 else 1
    found = [body for m, u, body in calls(argv[1]) if m == method and u == url]
    if len(found) < wanted:
        print(f"README.md has {len(found)} call(s) '{method} {url}', not {wanted}", file=sys.stderr)
        return 1
    sys.stdout.write(found[wanted - 1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
