#!/usr/bin/env python3
"""Runs SQL statements on Trino's HTTP protocol as the holder of a bearer token, over HTTPS with the
instance's CA (the chain is verified; the host name is not, since the server is reached on 127.0.0.1
while its certificate names the in-cluster Service). Prints each statement's rows as JSON, one line
each; on a query error prints "ERROR: <message>" and exits 1.

usage: trino_client.py BASE_URL CA_FILE TOKEN [--await-workers] STATEMENT...
"""
import json
import ssl
import sys
import time
import urllib.error
import urllib.request


def request(context, url, token, data=None):
    req = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET",
                                 headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(req, context=context, timeout=60) as response:
        return json.load(response)


def run(context, base, token, statement):
    result = request(context, base + "/v1/statement", token, statement.encode())
    rows = []
    while True:
        rows += result.get("data", [])
        if "error" in result:
            raise RuntimeError(result["error"]["message"])
        if "nextUri" not in result:
            return rows
        result = request(context, result["nextUri"], token)


def main():
    base, ca_file, token = sys.argv[1:4]
    statements = sys.argv[4:]
    context = ssl.create_default_context(cafile=ca_file)
    context.check_hostname = False
    try:
        if statements and statements[0] == "--await-workers":
            statements = statements[1:]
            deadline = time.time() + 120
            while run(context, base, token, "SELECT count(*) FROM system.runtime.nodes"
                      " WHERE coordinator = false AND state = 'active'")[0][0] < 1:
                if time.time() > deadline:
                    raise RuntimeError("no active Trino worker after 120 s")
                time.sleep(1)
        for statement in statements:
            print(json.dumps(run(context, base, token, statement)))
    except (RuntimeError, urllib.error.URLError) as e:
        body = e.read().decode(errors="replace") if isinstance(e, urllib.error.HTTPError) else ""
        print("ERROR: " + str(e) + (" " + body if body else ""))
        sys.exit(1)


if __name__ == "__main__":
    main()
