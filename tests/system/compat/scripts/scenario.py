"""A short working day on the demo data, through the published pages and API only.

Run by either tree's ``manage.py shell -c`` after ``seed.py``, so the code before accounts
per holder and the code after it are driven the same way, by URL, never by a module path
that may move. Each step names the audit action it is there to write; an answer other than
the one expected stops the script with a non-zero exit naming the request.
"""

import json
import sys

from django.test import Client

PASSWORD = "jinzi-demo-2026"  # the demo users' password (seed_demo)
NEW_PASSWORD = "compat-kept-records-2026"
WAGERS = (
    [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [7], "stake": 100}],
    [{"kind": "small", "stake": 400}, {"kind": "split", "numbers": [0, 1], "stake": 200}],
    [{"kind": "column", "numbers": [2, 5, 8, 11], "stake": 300}, {"kind": "black", "stake": 200}],
)
ROUNDS = 6


def expect(response, *statuses):
    if response.status_code not in statuses:
        request = response.request
        sys.exit(
            f"{request['REQUEST_METHOD']} {request['PATH_INFO']}: answered "
            f"{response.status_code}, expected {statuses}: {response.content[:400]!r}"
        )
    return response


def body(response):
    return json.loads(response.content)


def send(client, method, path, data=None, *statuses):
    call = getattr(client, method)
    if data is None:
        return expect(call(path), *statuses)
    return expect(call(path, json.dumps(data), content_type="application/json"), *statuses)


def sign_in(username, password=PASSWORD):
    client = Client()
    expect(client.post("/accounts/login/", {"username": username, "password": password}), 302)
    return client


def sign_out(client):
    expect(client.post("/accounts/logout/"), 302)


def top_up(client, amount, offering):
    """A demo top-up. The single wallet takes the amount alone (and refuses any other field);
    with an account per holder, where more than one holder exists, a 400 asks which holder
    it goes to: then the holder of the table about to be played."""
    answer = client.post(
        "/api/wallet/top-up/", json.dumps({"amount": amount}), content_type="application/json"
    )
    if answer.status_code == 400 and "holder" in body(answer).get("errors", {}):
        given = {"amount": amount, "holder": offering["holder"]}
        return send(client, "post", "/api/wallet/top-up/", given, 200)
    return expect(answer, 200)


def results(client, path):
    answer = body(send(client, "get", path, None, 200))
    return answer["results"] if isinstance(answer, dict) and "results" in answer else answer


# auth.sign_in_failed, then auth.locked_out: a wrong password, then a name tried until the
# lockout answers (JINZI_SIGN_IN_FAILURE_LIMIT is low for the run; 5 failures by default).
expect(Client().post("/accounts/login/", {"username": "player", "password": "wrong"}), 200)
stranger = Client()
for _ in range(6):
    answer = stranger.post("/accounts/login/", {"username": "compat-nobody", "password": "x"})
    if expect(answer, 200, 403, 429).status_code != 200:
        break
else:
    sys.exit("six failed sign-ins did not lock the name out")

# The player: auth.sign_in, wallet.top_up (account.open and account.deposit since accounts
# per holder), rounds (ledger entries, the round chain),
# api_token.issue and api_token.revoke, auth.password_change, auth.sign_out.
player = sign_in("player")
live = [o for o in results(player, "/api/offerings/") if o.get("status") == "active"]
if not live:
    sys.exit("no active offering for the player to play on")
table = live[0]["id"]
top_up(player, 5_000, live[0])
for number in range(ROUNDS):
    send(
        player,
        "post",
        "/api/rounds/",
        {
            "offering": table,
            "wagers": WAGERS[number % len(WAGERS)],
            "idempotency_key": f"compat-round-{number:03d}",
        },
        201,
    )
token = body(send(player, "post", "/api/tokens/", {"name": "compat check", "days": 7}, 201))
send(player, "delete", f"/api/tokens/{token['id']}/", None, 204)
expect(
    player.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    ),
    302,
)
sign_out(player)

# The superuser: holder.update (a holder's gaming day).
admin = sign_in("admin")
holder = results(admin, "/api/holders/")[-1]["id"]
send(admin, "patch", f"/api/holders/{holder}/", {"gaming_day_start_hour": 6}, 200)
sign_out(admin)

# The auditor: report.request (run in-process), report.download, audit_trail.export.
auditor = sign_in("auditor")
run = body(send(auditor, "post", "/api/reports/", {"kind": "expiry"}, 200, 201))
run = body(send(auditor, "get", f"/api/reports/{run['id']}/", None, 200))
if run["status"] != "succeeded" or not run["files"]:
    sys.exit(f"the expiry report did not run: {run}")
download = send(auditor, "get", f"/api/reports/{run['id']}/files/csv/", None, 200)
b"".join(download.streaming_content)
export = send(auditor, "get", "/api/audit-events/export/", None, 200)
b"".join(export.streaming_content)
sign_out(auditor)

# The manager: offering.retire (one of the holder's live tables, for good).
manager = sign_in("manager")
own = [o for o in results(manager, "/api/offerings/") if o.get("status") == "active"]
if not own:
    sys.exit("no active offering for the manager to retire")
send(manager, "post", f"/api/offerings/{own[0]['id']}/retire/", {"reason": "Compat check"}, 200)
sign_out(manager)

print("=== scenario ===")
print(json.dumps({"table": table, "rounds": ROUNDS}))
