#!/usr/bin/env bash
# A throw-away mail system on loopback for the end-to-end tests:
# Dovecot (IMAP, IMAPS, LMTP, SASL, passwd-file users) behind Postfix (SMTP + STARTTLS, SMTPS).
# Everything (config, TLS cert, queue, Maildirs, logs, PIDs) lives under $MAILTEST_DIR.
# Daemons are started directly (no systemd, no init scripts) and stopped only by recorded PID.
# See docs/mail-testing.md.
set -euo pipefail
umask 022

PROG=${0##*/}
PACKAGES=(dovecot-imapd dovecot-lmtpd postfix)

MAILTEST_DIR=${MAILTEST_DIR:-/tmp/moderator-mailtest}
MAILTEST_DIR=$(realpath -m -- "$MAILTEST_DIR") # config files need absolute paths
MAILTEST_HOST=127.0.0.1          # everything binds to IPv4 loopback only
MAILTEST_IMAP_PORT=${MAILTEST_IMAP_PORT:-10143}
MAILTEST_IMAPS_PORT=${MAILTEST_IMAPS_PORT:-10993}
MAILTEST_SMTP_PORT=${MAILTEST_SMTP_PORT:-10025}
MAILTEST_SMTPS_PORT=${MAILTEST_SMTPS_PORT:-10465}
MAILTEST_LMTP_PORT=${MAILTEST_LMTP_PORT:-10024}
MAILTEST_STOP_TIMEOUT=${MAILTEST_STOP_TIMEOUT:-10}
MAILTEST_START_TIMEOUT=${MAILTEST_START_TIMEOUT:-15}

usage() {
  cat <<EOF
Usage: $PROG COMMAND [ARGS]

A real mail system (Dovecot IMAP/LMTP + Postfix SMTP) on 127.0.0.1 for tests. Run as root.

Commands:
  install              apt-get install dovecot-imapd dovecot-lmtpd postfix (no-op if present)
  start ADDR:PASS ...  write config into \$MAILTEST_DIR, start Dovecot and Postfix with these
                       users (domains are taken from the addresses), wait until they answer
  stop                 stop what 'start' started (by recorded PID, children too)
  adduser ADDR:PASS ...  add (or re-password) users while running; new domains are fine;
                       returns once Postfix and Dovecot both accept them
  status               exit 0 if running, 1 if partly running, 3 if stopped
  env                  print MAILTEST_HOST, MAILTEST_*_PORT, MAILTEST_CAFILE, MAILTEST_DIR
                       as KEY=VALUE lines (e.g. set -a; eval "\$($PROG env)"; set +a)
  help                 this text

Environment (defaults):
  MAILTEST_DIR=$MAILTEST_DIR
  MAILTEST_IMAP_PORT=$MAILTEST_IMAP_PORT  MAILTEST_IMAPS_PORT=$MAILTEST_IMAPS_PORT
  MAILTEST_SMTP_PORT=$MAILTEST_SMTP_PORT (STARTTLS)  MAILTEST_SMTPS_PORT=$MAILTEST_SMTPS_PORT
  MAILTEST_LMTP_PORT=$MAILTEST_LMTP_PORT (internal, Postfix -> Dovecot)
EOF
}

die() { echo "$PROG: error: $*" >&2; exit 1; }
note() { echo "$PROG: $*" >&2; }

need_root() {
  [[ $(id -u) == 0 ]] || die "'$1' must run as root (Postfix and Dovecot drop privileges themselves)"
}

need_packages() {
  local missing=()
  command -v dovecot >/dev/null 2>&1 || [[ -x /usr/sbin/dovecot ]] || missing+=(dovecot)
  [[ -x /usr/sbin/postfix ]] || missing+=(postfix)
  [[ -x /usr/lib/dovecot/lmtp ]] || missing+=(dovecot-lmtpd)
  [[ -x /usr/lib/dovecot/imap ]] || missing+=(dovecot-imapd)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  ((${#missing[@]} == 0)) || die "missing: ${missing[*]} -- run: $0 install"
}

# ---------------------------------------------------------------- paths
ETC=$MAILTEST_DIR/etc
PFETC=$ETC/postfix                  # Postfix config ...
PFQUEUE=$MAILTEST_DIR/spool/postfix # ... queue ...
PFDATA=$MAILTEST_DIR/state/postfix  # ... and data live in separate trees (no check-warn noise)
DCBASE=$MAILTEST_DIR/run/dovecot
DCSTATE=$MAILTEST_DIR/state/dovecot
MAILROOT=$MAILTEST_DIR/mail
LOGDIR=$MAILTEST_DIR/log
PIDFILE=$MAILTEST_DIR/pids
ENVFILE=$MAILTEST_DIR/env
MARKER=$MAILTEST_DIR/.mailtest
CAFILE=$ETC/tls/cert.pem
KEYFILE=$ETC/tls/key.pem

# The ports of a running instance are the ones it was started with.
load_env_file() {
  [[ -f $ENVFILE ]] || return 0
  local key value
  while IFS='=' read -r key value; do
    case $key in
      MAILTEST_IMAP_PORT | MAILTEST_IMAPS_PORT | MAILTEST_SMTP_PORT | MAILTEST_SMTPS_PORT | \
        MAILTEST_LMTP_PORT) printf -v "$key" '%s' "$value" ;;
    esac
  done <"$ENVFILE"
}

all_ports() {
  echo "$MAILTEST_IMAP_PORT $MAILTEST_IMAPS_PORT $MAILTEST_SMTP_PORT $MAILTEST_SMTPS_PORT $MAILTEST_LMTP_PORT"
}

# ---------------------------------------------------------------- processes
# Fields of /proc/PID/stat after the "(comm)": [0]=state [1]=ppid ... [19]=starttime.
proc_stat() { # PID -> "state ppid starttime", fails if gone
  local line rest
  line=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  rest=${line##*) }
  local -a f
  read -r -a f <<<"$rest"
  echo "${f[0]} ${f[1]} ${f[19]}"
}

# Alive = exists, is not a zombie (the init here reaps late), and has the recorded start time.
proc_alive() { # PID [STARTTIME]
  local s
  s=$(proc_stat "$1") || return 1
  local -a f
  read -r -a f <<<"$s"
  [[ ${f[0]} != Z && ${f[0]} != X ]] || return 1
  [[ -z ${2:-} || ${f[2]} == "$2" ]]
}

proc_starttime() { local s; s=$(proc_stat "$1") || return 1; echo "${s##* }"; }

# All descendants of the given PIDs, as "PID STARTTIME" lines (scan of /proc/*/stat).
descendants() {
  local -A parent=() start=()
  local d pid s
  local -a f
  for d in /proc/[0-9]*; do
    pid=${d#/proc/}
    s=$(proc_stat "$pid") || continue
    read -r -a f <<<"$s"
    [[ ${f[0]} == Z || ${f[0]} == X ]] && continue
    parent[$pid]=${f[1]}
    start[$pid]=${f[2]}
  done
  local -A seen=()
  local -a queue=("$@")
  local p c
  while ((${#queue[@]})); do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    for c in "${!parent[@]}"; do
      if [[ ${parent[$c]} == "$p" && -z ${seen[$c]:-} ]]; then
        seen[$c]=1
        queue+=("$c")
        echo "$c ${start[$c]}"
      fi
    done
  done
}

# ---------------------------------------------------------------- network probes
port_in_use() { # PORT: true if anything accepts a connection there
  if { exec 3<>"/dev/tcp/$MAILTEST_HOST/$1"; } 2>/dev/null; then
    exec 3<&- 3>&-
    return 0
  fi
  return 1
}

# Wait until PORT answers with a line starting with PREFIX (or just accepts, if PREFIX is empty).
wait_banner() { # PORT PREFIX GOODBYE
  local port=$1 prefix=$2 bye=$3 line deadline=$((SECONDS + MAILTEST_START_TIMEOUT))
  while ((SECONDS <= deadline)); do
    if { exec 3<>"/dev/tcp/$MAILTEST_HOST/$port"; } 2>/dev/null; then
      if [[ -z $prefix ]]; then
        exec 3<&- 3>&-
        return 0
      fi
      if IFS= read -r -t 5 line <&3 && [[ $line == "$prefix"* ]]; then
        printf '%s\r\n' "$bye" >&3 2>/dev/null || true
        exec 3<&- 3>&-
        return 0
      fi
      exec 3<&- 3>&-
    fi
    sleep 0.05
  done
  return 1
}

# Ask Postfix whether it accepts RCPT TO:<ADDR> now; prints the reply code.
smtp_rcpt_code() { # ADDR
  local line code=""
  { exec 3<>"/dev/tcp/$MAILTEST_HOST/$MAILTEST_SMTP_PORT"; } 2>/dev/null || { echo 000; return 0; }
  smtp_reply() { while IFS= read -r -t 5 line <&3; do [[ ${line:3:1} == "-" ]] || { echo "${line:0:3}"; return 0; }; done; echo 000; }
  smtp_reply >/dev/null
  printf 'EHLO mailtest.localhost\r\n' >&3
  smtp_reply >/dev/null
  printf 'MAIL FROM:<>\r\n' >&3
  smtp_reply >/dev/null
  printf 'RCPT TO:<%s>\r\n' "$1" >&3
  code=$(smtp_reply)
  printf 'QUIT\r\n' >&3 2>/dev/null || true
  exec 3<&- 3>&-
  echo "$code"
}

# ---------------------------------------------------------------- users
parse_user() { # ADDR:PASS -> sets U_ADDR U_PASS U_DOMAIN
  local spec=$1
  [[ $spec == *:* ]] || die "user spec '$spec' must look like ADDRESS:PASSWORD"
  U_ADDR=${spec%%:*}
  U_PASS=${spec#*:}
  U_ADDR=${U_ADDR,,}
  [[ $U_ADDR =~ ^[a-z0-9][a-z0-9._+-]*@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$ ]] \
    || die "bad address '$U_ADDR' (want local@domain.tld, ASCII)"
  [[ -n $U_PASS ]] || die "empty password for $U_ADDR"
  [[ $U_PASS != *:* && $U_PASS != *[[:space:]]* ]] \
    || die "password for $U_ADDR may not contain ':' or whitespace"
  U_DOMAIN=${U_ADDR#*@}
}

# Append or replace the user in the Dovecot passwd-file and the Postfix maps.
# Returns 0 if a Postfix map changed (reload needed), 1 otherwise.
write_user() { # uses U_ADDR U_PASS U_DOMAIN
  local line="$U_ADDR:{PLAIN}$U_PASS::::::" changed=1 old_mtime
  if ! grep -qxF -- "$line" "$ETC/users"; then
    old_mtime=$(stat -c %Y "$ETC/users")
    if grep -q "^${U_ADDR//./\\.}:" "$ETC/users"; then
      grep -v "^${U_ADDR//./\\.}:" "$ETC/users" >"$ETC/users.new" || true
      echo "$line" >>"$ETC/users.new"
      chmod 0644 "$ETC/users.new"
      mv -f "$ETC/users.new" "$ETC/users"
    else
      echo "$line" >>"$ETC/users"
    fi
    # Dovecot reloads the passwd-file only if its mtime or size changed; a new password of the
    # same length written within the same second would go unnoticed.
    if (($(stat -c %Y "$ETC/users") <= old_mtime)); then
      touch -d "@$((old_mtime + 1))" "$ETC/users"
    fi
  fi
  if ! grep -qxF -- "$U_ADDR OK" "$ETC/recipients"; then
    echo "$U_ADDR OK" >>"$ETC/recipients"
    changed=0
  fi
  if ! grep -qxF -- "$U_DOMAIN OK" "$ETC/domains"; then
    echo "$U_DOMAIN OK" >>"$ETC/domains"
    changed=0
  fi
  return $changed
}

# Postfix ignores a main.cf/map modified less than a second ago and polls every 300 ms until
# it is "stable" (2-3 s per start). Backdate what we generate.
backdate() { touch -d '-5 seconds' "$@"; }

# ---------------------------------------------------------------- config writers
dovecot_version() { dovecot --version 2>/dev/null | awk '{print $1; exit}'; }

write_dovecot_conf() { # MAJOR.MINOR
  local ver=$1 conf=$ETC/dovecot.conf
  if [[ $ver == 2.3* || $ver == 2.2* ]]; then
    local dh=""
    [[ -r /usr/share/dovecot/dh.pem ]] && dh="ssl_dh = </usr/share/dovecot/dh.pem"
    cat >"$conf" <<EOF
# Generated by $PROG for Dovecot $ver. Standalone: includes nothing from /etc/dovecot.
instance_name = mailtest
base_dir = $DCBASE
state_dir = $DCSTATE
listen = $MAILTEST_HOST
protocols = imap lmtp
log_path = $LOGDIR/dovecot.log
info_log_path = $LOGDIR/dovecot.log

ssl = yes
ssl_cert = <$CAFILE
ssl_key = <$KEYFILE
$dh
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Lu
# Tests try wrong passwords on purpose: no 2 s delay, no anvil penalty (up to 15 s).
auth_failure_delay = 0

mail_location = maildir:$MAILROOT/%d/%n/Maildir
mail_home = $MAILROOT/%d/%n
# uid 0 may not own mail; nobody avoids creating a system user.
mail_uid = nobody
mail_gid = nogroup

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu $ETC/users
}
userdb {
  driver = passwd-file
  args = username_format=%Lu $ETC/users
}
EOF
  else
    cat >"$conf" <<EOF
dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
# Generated by $PROG for Dovecot $ver. Standalone: includes nothing from /etc/dovecot.
instance_name = mailtest
base_dir = $DCBASE
state_dir = $DCSTATE
listen = $MAILTEST_HOST
protocols = imap lmtp
log_path = $LOGDIR/dovecot.log
info_log_path = $LOGDIR/dovecot.log

ssl = yes
ssl_server_cert_file = $CAFILE
ssl_server_key_file = $KEYFILE
auth_allow_cleartext = yes
auth_mechanisms = plain login
auth_username_format = %{user | lower}
# Tests try wrong passwords on purpose: no 2 s delay, no anvil penalty (up to 15 s).
auth_failure_delay = 0

mail_driver = maildir
mail_home = $MAILROOT/%{user | domain}/%{user | username}
mail_path = $MAILROOT/%{user | domain}/%{user | username}/Maildir
# uid 0 may not own mail; nobody avoids creating a system user.
mail_uid = nobody
mail_gid = nogroup
namespace inbox {
  inbox = yes
}

passdb passwd-file {
  passwd_file_path = $ETC/users
}
userdb passwd-file {
  passwd_file_path = $ETC/users
}
EOF
  fi
  # Shared by both versions (no 'address' inside inet_listener: gone in 2.4; 'listen' covers it).
  cat >>"$conf" <<EOF

protocol lmtp {
  postmaster_address = postmaster@mailtest.localhost
}
service imap-login {
  inet_listener imap {
    port = $MAILTEST_IMAP_PORT
  }
  inet_listener imaps {
    port = $MAILTEST_IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    port = $MAILTEST_LMTP_PORT
  }
}
service auth {
  # Postfix smtpd authenticates SMTP AUTH against the same users.
  unix_listener auth-postfix {
    mode = 0660
    user = postfix
    group = postfix
  }
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
EOF
}

write_postfix_conf() {
  cat >"$PFETC/main.cf" <<EOF
# Generated by $PROG. Used only as: postfix -c $PFETC ...
compatibility_level = 3.6
config_directory = $PFETC
queue_directory = $PFQUEUE
data_directory = $PFDATA
mail_owner = postfix
setgid_group = postdrop

maillog_file = $LOGDIR/postfix.log
maillog_file_prefixes = $LOGDIR

myhostname = mailtest.localhost
mydomain = localhost
myorigin = \$myhostname
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
inet_interfaces = $MAILTEST_HOST
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_banner = \$myhostname ESMTP mailtest
biff = no
append_dot_mydomain = no
readme_directory = no

# Our users: virtual mailboxes delivered to Dovecot over LMTP. Unknown users: 550 at RCPT.
virtual_mailbox_domains = texthash:$ETC/domains
virtual_mailbox_maps = texthash:$ETC/recipients
virtual_transport = lmtp:inet:$MAILTEST_HOST:$MAILTEST_LMTP_PORT
unknown_virtual_mailbox_reject_code = 550
# Nothing ever leaves the machine: no relaying even when authenticated (554 at RCPT).
relayhost =
default_transport = error:mailtest delivers locally only
local_transport = error:mailtest delivers locally only
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions =
relay_domains_reject_code = 554
smtp_dns_support_level = disabled
lmtp_host_lookup = native
smtpd_peername_lookup = no
delay_warning_time = 0

# SASL via Dovecot; plaintext AUTH allowed on loopback, STARTTLS offered.
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $DCBASE/auth-postfix
smtpd_tls_auth_only = no
smtpd_tls_security_level = may
smtpd_tls_cert_file = $CAFILE
smtpd_tls_key_file = $KEYFILE
smtpd_tls_loglevel = 0
smtp_tls_security_level = none
lmtp_tls_security_level = none
EOF
  # Debian's stock services, with chroot off (the spool is not a prepared jail).
  cat >"$PFETC/master.cf" <<EOF
# service             type  private unpriv chroot wakeup maxproc command
$MAILTEST_HOST:$MAILTEST_SMTP_PORT  inet  n  -  n  -  -  smtpd
$MAILTEST_HOST:$MAILTEST_SMTPS_PORT inet  n  -  n  -  -  smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_tls_security_level=encrypt
pickup    unix  n  -  n  60    1  pickup
cleanup   unix  n  -  n  -     0  cleanup
qmgr      unix  n  -  n  1     1  qmgr
tlsmgr    unix  -  -  n  1000? 1  tlsmgr
rewrite   unix  -  -  n  -     -  trivial-rewrite
bounce    unix  -  -  n  -     0  bounce
defer     unix  -  -  n  -     0  bounce
trace     unix  -  -  n  -     0  bounce
verify    unix  -  -  n  -     1  verify
flush     unix  n  -  n  1000? 0  flush
proxymap  unix  -  -  n  -     -  proxymap
proxywrite unix -  -  n  -     1  proxymap
smtp      unix  -  -  n  -     -  smtp
relay     unix  -  -  n  -     -  smtp
showq     unix  n  -  n  -     -  showq
error     unix  -  -  n  -     -  error
retry     unix  -  -  n  -     -  error
discard   unix  -  -  n  -     -  discard
lmtp      unix  -  -  n  -     -  lmtp
anvil     unix  -  -  n  -     1  anvil
scache    unix  -  -  n  -     1  scache
postlog   unix-dgram n - n  -     1  postlogd
EOF
}

make_cert() {
  mkdir -p -m 0755 "$ETC/tls"
  if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
    -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,digitalSignature,keyCertSign" \
    -addext "extendedKeyUsage=serverAuth" \
    -keyout "$KEYFILE" -out "$CAFILE" >"$LOGDIR/openssl.log" 2>&1; then
    cat "$LOGDIR/openssl.log" >&2
    die "openssl could not create the self-signed certificate"
  fi
  chmod 0600 "$KEYFILE"
  chmod 0644 "$CAFILE"
}

# ---------------------------------------------------------------- state
record_pid() { # NAME PID
  local st
  st=$(proc_starttime "$2") || die "$1 (pid $2) died right after starting; see $LOGDIR"
  echo "$1 $2 $st" >>"$PIDFILE"
}

# "NAME PID STARTTIME" for recorded masters that are still alive.
running_masters() {
  [[ -f $PIDFILE ]] || return 0
  local name pid st
  while read -r name pid st; do
    [[ -n ${pid:-} ]] || continue
    proc_alive "$pid" "$st" && echo "$name $pid $st"
  done <"$PIDFILE"
  return 0
}

read_pidfile() { # FILE -> PID
  local pid deadline=$((SECONDS + MAILTEST_START_TIMEOUT))
  while ((SECONDS <= deadline)); do
    if [[ -s $1 ]] && read -r pid <"$1" && [[ $pid =~ ^[0-9]+$ ]]; then
      echo "$pid"
      return 0
    fi
    sleep 0.05
  done
  return 1
}

show_logs() {
  local f
  for f in "$LOGDIR"/dovecot.log "$LOGDIR"/postfix.log "$LOGDIR"/postfix-start.log; do
    [[ -s $f ]] || continue
    echo "---- last lines of $f" >&2
    tail -n 20 "$f" >&2
  done
}

# ---------------------------------------------------------------- commands
cmd_install() {
  need_root install
  local p missing=()
  for p in "${PACKAGES[@]}"; do
    [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    note "already installed: ${PACKAGES[*]} ($(dovecot --version | awk '{print "dovecot " $1}'), postfix $(postconf -d -h mail_version 2>/dev/null || echo '?'))"
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  # No /etc/postfix/main.cf: a system Postfix can never come up on port 25.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  # Keep package scripts from starting system daemons (a system Dovecot on 143/993) on machines
  # that lack a policy-rc.d; ours is removed again afterwards.
  local policy=/usr/sbin/policy-rc.d ours=""
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\n# temporary, from %s install\nexit 101\n' "$PROG" >"$policy"
    chmod 0755 "$policy"
    ours=$policy
    trap 'rm -f "'"$policy"'"' EXIT
  fi
  note "installing ${PACKAGES[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}"
  if [[ -n $ours ]]; then
    rm -f "$ours"
    trap - EXIT
  fi
  note "installed: $(dovecot --version | awk '{print "dovecot " $1}'), postfix $(postconf -d -h mail_version)"
}

STARTED_OK=0
abort_start() {
  if ((STARTED_OK == 0)); then
    note "start failed; stopping whatever was started"
    show_logs
    stop_all >/dev/null 2>&1 || true
  fi
}

cmd_start() {
  need_root start
  need_packages
  (($# > 0)) || die "start needs at least one ADDR:PASS (e.g. $PROG start alice@example.test:secret)"
  local spec
  for spec in "$@"; do parse_user "$spec"; done # validate everything before touching anything

  local p
  for p in $(all_ports); do
    [[ $p =~ ^[0-9]+$ ]] && ((p > 0 && p < 65536)) || die "bad port '$p'"
  done
  if [[ $(all_ports | tr ' ' '\n' | sort -u | wc -l) != 5 ]]; then
    die "the five ports must differ: $(all_ports)"
  fi
  if [[ -n $(running_masters) ]]; then
    die "already running from $MAILTEST_DIR ($(running_masters | awk '{printf "%s pid %s; ", $1, $2}')) -- run '$PROG stop' first"
  fi
  # Postfix binds with SO_REUSEPORT: a stale master elsewhere would silently share the port.
  local busy=()
  for p in $(all_ports); do port_in_use "$p" && busy+=("$p"); done
  ((${#busy[@]} == 0)) \
    || die "something already listens on $MAILTEST_HOST port(s) ${busy[*]}; stop it first (see 'ss -ltnp')"

  # Only ever wipe our own directory (marker) or an empty one.
  if [[ -e $MAILTEST_DIR ]]; then
    [[ -d $MAILTEST_DIR ]] || die "$MAILTEST_DIR exists and is not a directory"
    if [[ -e $MARKER ]]; then
      rm -rf "$MAILTEST_DIR"
    elif [[ -n $(ls -A "$MAILTEST_DIR") ]]; then
      die "$MAILTEST_DIR is not empty and was not made by $PROG; refusing to wipe it"
    fi
  fi
  # Every daemon user (dovenull, dovecot, postfix, nobody) must be able to traverse the tree.
  local d parent=$MAILTEST_DIR
  while parent=$(dirname "$parent") && [[ $parent != / ]]; do
    [[ -e $parent ]] || continue
    [[ $(($(stat -c '0%a' "$parent") & 0005)) == 5 ]] \
      || die "$parent is not world-traversable (mode $(stat -c %a "$parent")); pick another MAILTEST_DIR"
  done
  mkdir -p -m 0755 "$MAILTEST_DIR"
  chmod 0755 "$MAILTEST_DIR"
  touch "$MARKER"
  for d in "$ETC" "$PFETC" "$PFQUEUE" "$PFDATA" "$DCBASE" "$DCSTATE" "$MAILROOT" "$LOGDIR"; do
    mkdir -p -m 0755 "$d"
  done
  chown postfix "$PFDATA"
  chown nobody:nogroup "$MAILROOT"
  : >"$PIDFILE"
  : >"$ETC/users"
  : >"$ETC/recipients"
  : >"$ETC/domains"
  chmod 0644 "$ETC/users" # read by the auth process (root) only, but harmless on loopback
  for spec in "$@"; do
    parse_user "$spec"
    write_user || true
  done
  cat >"$ENVFILE" <<EOF
MAILTEST_HOST=$MAILTEST_HOST
MAILTEST_IMAP_PORT=$MAILTEST_IMAP_PORT
MAILTEST_IMAPS_PORT=$MAILTEST_IMAPS_PORT
MAILTEST_SMTP_PORT=$MAILTEST_SMTP_PORT
MAILTEST_SMTPS_PORT=$MAILTEST_SMTPS_PORT
MAILTEST_LMTP_PORT=$MAILTEST_LMTP_PORT
MAILTEST_CAFILE=$CAFILE
MAILTEST_DIR=$MAILTEST_DIR
EOF
  make_cert

  local ver
  ver=$(dovecot_version)
  [[ -n $ver ]] || die "cannot get the Dovecot version from 'dovecot --version'"
  write_dovecot_conf "$ver"
  write_postfix_conf
  backdate "$PFETC/main.cf" "$PFETC/master.cf" "$ETC/recipients" "$ETC/domains"

  STARTED_OK=0
  trap abort_start EXIT

  # Dovecot daemonizes; its master writes base_dir/master.pid.
  if ! dovecot -c "$ETC/dovecot.conf" >"$LOGDIR/dovecot-start.log" 2>&1; then
    cat "$LOGDIR/dovecot-start.log" >&2
    die "dovecot did not start (config: $ETC/dovecot.conf)"
  fi
  local pid
  pid=$(read_pidfile "$DCBASE/master.pid") || die "dovecot wrote no $DCBASE/master.pid"
  record_pid dovecot "$pid"

  # 'postfix start' waits for the master to initialize (master -w). Without a tty it reports
  # errors only to maillog_file, so keep its output and show the log on failure.
  if ! postfix -c "$PFETC" start >"$LOGDIR/postfix-start.log" 2>&1; then
    die "postfix did not start (config: $PFETC)"
  fi
  pid=$(read_pidfile "$PFQUEUE/pid/master.pid") || die "postfix wrote no $PFQUEUE/pid/master.pid"
  record_pid postfix "$pid"

  wait_banner "$MAILTEST_IMAP_PORT" "* OK" "a LOGOUT" || die "no IMAP banner on port $MAILTEST_IMAP_PORT"
  wait_banner "$MAILTEST_IMAPS_PORT" "" "" || die "IMAPS port $MAILTEST_IMAPS_PORT does not accept"
  wait_banner "$MAILTEST_LMTP_PORT" "220" "QUIT" || die "no LMTP banner on port $MAILTEST_LMTP_PORT"
  wait_banner "$MAILTEST_SMTP_PORT" "220" "QUIT" || die "no SMTP banner on port $MAILTEST_SMTP_PORT"
  wait_banner "$MAILTEST_SMTPS_PORT" "" "" || die "SMTPS port $MAILTEST_SMTPS_PORT does not accept"

  STARTED_OK=1
  trap - EXIT
  note "running (dovecot $ver, postfix $(postconf -c "$PFETC" -h mail_version)): IMAP $MAILTEST_IMAP_PORT, IMAPS $MAILTEST_IMAPS_PORT, SMTP $MAILTEST_SMTP_PORT, SMTPS $MAILTEST_SMTPS_PORT on $MAILTEST_HOST; $# user(s); state in $MAILTEST_DIR"
}

# Stop the recorded masters (start time checked, so a reused PID is never hit), then any child
# that outlives its master (Dovecot 2.3 leaves log/auth/imap children behind for seconds).
stop_all() {
  local -a masters=() kids=()
  local name pid st line
  while read -r name pid st; do
    [[ -n ${pid:-} ]] && masters+=("$pid $st")
  done < <(running_masters)
  if ((${#masters[@]} == 0)); then
    [[ -f $PIDFILE ]] && : >"$PIDFILE"
    return 0
  fi
  local -A known=()
  collect_kids() {
    local m alive_pids=()
    for m in "${masters[@]}"; do proc_alive ${m} && alive_pids+=("${m%% *}"); done
    ((${#alive_pids[@]})) || return 0
    while read -r line; do
      [[ -n $line && -z ${known[${line%% *}]:-} ]] || continue
      known[${line%% *}]=1
      kids+=("$line")
    done < <(descendants "${alive_pids[@]}")
  }
  collect_kids
  local m
  for m in "${masters[@]}"; do
    proc_alive ${m} && kill -TERM "${m%% *}" 2>/dev/null || true
  done
  local deadline=$((SECONDS + MAILTEST_STOP_TIMEOUT)) any
  while :; do
    any=0
    for m in "${masters[@]}"; do proc_alive ${m} && any=1; done
    ((any)) || break
    if ((SECONDS >= deadline)); then
      for m in "${masters[@]}"; do
        if proc_alive ${m}; then
          note "master pid ${m%% *} ignored SIGTERM for ${MAILTEST_STOP_TIMEOUT}s; killing it"
          kill -KILL "${m%% *}" 2>/dev/null || true
        fi
      done
      sleep 0.1
      break
    fi
    collect_kids
    sleep 0.05
  done
  # Survivors among the children we saw (same PID *and* start time).
  local k alive_kids=()
  for k in "${kids[@]}"; do proc_alive ${k} && alive_kids+=("$k"); done
  if ((${#alive_kids[@]})); then
    for k in "${alive_kids[@]}"; do kill -TERM "${k%% *}" 2>/dev/null || true; done
    deadline=$((SECONDS + 3))
    while ((SECONDS < deadline)); do
      any=0
      for k in "${alive_kids[@]}"; do proc_alive ${k} && any=1; done
      ((any)) || break
      sleep 0.05
    done
    for k in "${alive_kids[@]}"; do
      proc_alive ${k} && kill -KILL "${k%% *}" 2>/dev/null || true
    done
  fi
  : >"$PIDFILE"
}

cmd_stop() {
  need_root stop
  if [[ ! -f $PIDFILE || -z $(running_masters) ]]; then
    [[ -f $PIDFILE ]] && : >"$PIDFILE"
    note "not running ($MAILTEST_DIR)"
    return 0
  fi
  load_env_file
  stop_all
  local p busy=()
  for p in $(all_ports); do port_in_use "$p" && busy+=("$p"); done
  ((${#busy[@]} == 0)) || note "warning: port(s) ${busy[*]} still answer after stop (not ours?)"
  note "stopped"
}

cmd_adduser() {
  need_root adduser
  (($# >= 1)) || die "usage: $PROG adduser ADDR:PASS [ADDR:PASS ...]"
  local spec
  for spec in "$@"; do parse_user "$spec"; done # validate all first
  load_env_file
  [[ -n $(running_masters) ]] || die "not running ($MAILTEST_DIR); use '$PROG start' first"
  [[ -f $ETC/users ]] || die "$ETC/users missing"
  local code deadline reload=0 addrs=()
  for spec in "$@"; do
    parse_user "$spec"
    write_user && reload=1
    addrs+=("$U_ADDR")
  done
  if ((reload)); then
    backdate "$ETC/recipients" "$ETC/domains"
    postfix -c "$PFETC" reload >>"$LOGDIR/postfix-start.log" 2>&1 || die "postfix reload failed"
    # 'reload' only signals the master: wait until smtpd really accepts the new addresses.
    deadline=$((SECONDS + MAILTEST_START_TIMEOUT))
    for U_ADDR in "${addrs[@]}"; do
      while :; do
        code=$(smtp_rcpt_code "$U_ADDR")
        [[ $code == 250 ]] && break
        ((SECONDS < deadline)) || die "Postfix still answers $code to RCPT TO:<$U_ADDR> after reload"
        sleep 0.05
      done
    done
  fi
  # Dovecot re-reads the passwd-file by itself, but stats it at most once per second:
  # wait until its auth process accepts the new passwords.
  deadline=$((SECONDS + MAILTEST_START_TIMEOUT))
  for spec in "$@"; do
    parse_user "$spec"
    until doveadm -c "$ETC/dovecot.conf" auth test "$U_ADDR" "$U_PASS" >/dev/null 2>&1; do
      ((SECONDS < deadline)) || die "Dovecot does not accept the password of $U_ADDR (see $LOGDIR/dovecot.log)"
      sleep 0.1
    done
  done
  note "ready: ${addrs[*]}"
}

cmd_status() {
  load_env_file
  local -a lines=()
  mapfile -t lines < <(running_masters)
  local recorded=0
  [[ -f $PIDFILE ]] && recorded=$(grep -c . "$PIDFILE" || true)
  if ((${#lines[@]} == 0)); then
    echo "stopped ($MAILTEST_DIR)"
    return 3
  fi
  local l
  for l in "${lines[@]}"; do
    read -r name pid _ <<<"$l"
    echo "$name: running, pid $pid"
  done
  echo "IMAP $MAILTEST_HOST:$MAILTEST_IMAP_PORT  IMAPS :$MAILTEST_IMAPS_PORT  SMTP :$MAILTEST_SMTP_PORT  SMTPS :$MAILTEST_SMTPS_PORT  LMTP :$MAILTEST_LMTP_PORT"
  echo "users: $(cut -d: -f1 "$ETC/users" | tr '\n' ' ')"
  if ((${#lines[@]} < recorded)); then
    echo "degraded: only ${#lines[@]} of $recorded daemons alive; see $LOGDIR"
    return 1
  fi
  return 0
}

cmd_env() {
  load_env_file
  local k
  for k in MAILTEST_HOST MAILTEST_IMAP_PORT MAILTEST_IMAPS_PORT MAILTEST_SMTP_PORT \
    MAILTEST_SMTPS_PORT MAILTEST_CAFILE MAILTEST_DIR; do
    case $k in
      MAILTEST_CAFILE) printf '%s=%q\n' "$k" "$CAFILE" ;;
      *) printf '%s=%q\n' "$k" "${!k}" ;;
    esac
  done
}

main() {
  local cmd=${1:-}
  (($#)) && shift
  case $cmd in
    install) cmd_install "$@" ;;
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    adduser) cmd_adduser "$@" ;;
    status) cmd_status "$@" ;;
    env) cmd_env "$@" ;;
    help | -h | --help) usage ;;
    "") usage >&2; exit 2 ;;
    *) echo "$PROG: unknown command '$cmd'" >&2; usage >&2; exit 2 ;;
  esac
}

main "$@"
