#!/usr/bin/env bash
# Run the whole test suite on this machine, installing what it needs first:
# Python packages, Dovecot (real IMAP), PostgreSQL (real event store) and Chromium
# (real browser for the HTML report). Needs root for apt-get on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v dovecot >/dev/null || need+=(dovecot-imapd)
command -v openssl >/dev/null || need+=(openssl)
[ -x /usr/lib/postgresql/15/bin/postgres ] || ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null || need+=(chromium)
ldconfig -p | grep -q libcairo.so.2 || need+=(libcairo2)
fc-list 2>/dev/null | grep -qi dejavu || need+=(fonts-dejavu-core)
command -v systemd-analyze >/dev/null || need+=(systemd)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

PBEM_EXTRAS=test,postgres bash scripts/setup.sh

# A PostgreSQL cluster of our own, on a private port, for the storage tests.
PGVER=$(ls /usr/lib/postgresql | sort -n | tail -1)
PGBIN=/usr/lib/postgresql/$PGVER/bin
PGDATA=${PBEM_PGDATA:-/tmp/pbem-test-pg}
PGPORT=${PBEM_PGPORT:-54329}
getent passwd postgres >/dev/null || useradd --system --no-create-home postgres
if [ ! -f "$PGDATA/PG_VERSION" ]; then
    mkdir -p "$PGDATA" && chown postgres "$PGDATA"
    su postgres -s /bin/sh -c "$PGBIN/initdb -D $PGDATA -A trust -U postgres" >/dev/null
fi
if ! su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1; then
    su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/log -o '-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1' -w start" >/dev/null
    # Started here, so stopped here when the tests end (PBEM_KEEP_PG=1 keeps it for other runs).
    [ -n "${PBEM_KEEP_PG:-}" ] || trap 'su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGDATA -m fast -w stop" >/dev/null 2>&1 || true' EXIT
fi
psql -h 127.0.0.1 -p "$PGPORT" -U postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname='pbem'" | grep -q 1 \
    || psql -h 127.0.0.1 -p "$PGPORT" -U postgres -qc "CREATE USER pbem WITH PASSWORD 'pbem' SUPERUSER"
export PBEM_TEST_POSTGRES="host=127.0.0.1 port=$PGPORT user=pbem password=pbem"

set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
[ "$status" -eq 5 ] && { echo "no tests ran"; exit 1; }
exit "$status"
