#!/bin/sh
# Creates the Iceberg catalog on the warehouse bucket and grants CATALOG_MANAGE_CONTENT to its
# catalog_admin role, through the Polaris management API. Idempotent: an existing catalog (409) or
# grant is success. Every value comes from the environment or from JSON files written by
# catalog-service: nothing typed by a user is ever part of this script.
set -eu

fail() {
  echo "catalog creation failed: $*" >&2
  exit 1
}

# Secrets never go on a command line (any process of the node can read it): the client secret and
# the access token reach curl on its standard input, written by printf, a builtin of the shell.
token_json=$(printf '%s' "$POLARIS_CLIENT_SECRET" | curl -sS --max-time 20 -X POST \
  "$POLARIS_URL/api/catalog/v1/oauth/tokens" \
  -H "Polaris-Realm: $POLARIS_REALM" \
  --data-urlencode "grant_type=client_credentials" \
  --data-urlencode "client_id=$POLARIS_CLIENT_ID" \
  --data-urlencode "client_secret@-" \
  --data-urlencode "scope=PRINCIPAL_ROLE:ALL") || fail "token endpoint unreachable"
token=$(printf '%s' "$token_json" | sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p')
[ -n "$token" ] || fail "no access token returned (is the realm initialized?)"

call() {
  # call METHOD PATH FILE: prints the HTTP status, the body goes to /tmp/response.json
  # (the Authorization header from standard input: -H @-)
  printf 'Authorization: Bearer %s\n' "$token" | curl -sS --max-time 20 -o /tmp/response.json -w '%{http_code}' \
    -X "$1" "$POLARIS_URL/api/management/v1$2" -H @- -H "Polaris-Realm: $POLARIS_REALM" \
    -H 'Content-Type: application/json' --data-binary "@$3"
}

status=$(call POST /catalogs /task/catalog.json) || fail "management API unreachable"
case "$status" in
  201) echo "catalog $POLARIS_CATALOG created" ;;
  409) echo "catalog $POLARIS_CATALOG already exists" ;;
  *) cat /tmp/response.json >&2; fail "POST /catalogs answered HTTP $status" ;;
esac

status=$(call PUT "/catalogs/$POLARIS_CATALOG/catalog-roles/catalog_admin/grants" /task/grant.json) \
  || fail "management API unreachable"
case "$status" in
  200|201|204|409) echo "CATALOG_MANAGE_CONTENT granted to catalog_admin" ;;
  *) cat /tmp/response.json >&2; fail "PUT grants answered HTTP $status" ;;
esac
