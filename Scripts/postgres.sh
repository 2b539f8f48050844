#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks, on its own port, in a folder of its own:
#   Scripts/postgres.sh start FOLDER [PORT]   initdb (trust auth, loopback and a socket in FOLDER), start;
#                                             prints the URL to give ONWARD_TEST_POSTGRES_URL / ONWARD_DATABASE_URL.
#                                             With openssl, TLS is on too: a certificate for localhost and
#                                             127.0.0.1 from a CA made for it, FOLDER/tls/ca.pem (for sslrootcert)
#   Scripts/postgres.sh stop FOLDER           stop it and delete the folder
# Uses Debian's PostgreSQL 15 (installed on the machine, stopped). As root, the cluster runs as `postgres`
# (initdb refuses root). Never touches the machine's own cluster.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
  folder=${2:?folder}; port=${3:-55432}
  mkdir -p "$folder"
  [ "$(id -u)" = 0 ] && chown postgres: "$folder"
  as_owner "$bin/initdb" -D "$folder/data" --auth=trust --username=onward --encoding=UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 \
    || { cat "$folder/initdb.log" >&2; exit 1; }
  tls=()
  if command -v openssl >/dev/null; then
    t=$folder/tls
    mkdir -p "$t"
    ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 "${ec[@]}" -days 7 -subj "/CN=Onward test CA" -keyout "$t/ca.key" -out "$t/ca.pem" \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
    openssl req "${ec[@]}" -subj "/CN=localhost" -keyout "$t/server.key" -out "$t/server.csr" 2>/dev/null
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" \
      "subjectAltName=DNS:localhost,IP:127.0.0.1" >"$t/server.ext"
    openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca.key" -CAcreateserial -days 7 -extfile "$t/server.ext" \
      -out "$t/server.pem" 2>/dev/null
    chmod 600 "$t/server.key"
    if [ "$(id -u)" = 0 ]; then chown -R postgres: "$t"; fi
    tls=(-c ssl=on -c "ssl_cert_file=$t/server.pem" -c "ssl_key_file=$t/server.key")
  fi
  # Room for the tests' pools (each check opens its own) and two servers; the rest are PostgreSQL's defaults.
  as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 30 \
    -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c max_connections=400 -c shared_buffers=128MB ${tls[*]}" start >/dev/null \
    || { cat "$folder/server.log" >&2; exit 1; }
  echo "postgres://onward@127.0.0.1:$port/postgres?sslmode=disable"
  ;;
stop)
  folder=${2:?folder}
  [ -d "$folder/data" ] && as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$folder"
  ;;
*)
  echo "usage: $0 start FOLDER [PORT] | stop FOLDER" >&2; exit 2 ;;
esac
