#!/bin/sh
# Least privilege in Redis (docs/operations.md): each Redis service logs in as an ACL user of its
# own that may touch only the keys under its prefix, with the commands a key-value store needs and
# nothing that administers the server or lists keys (the rules of packages/kv/src/acl.ts, checked
# by infra/checks). ACLs live on each node, so every node of REDIS_NODES ("host:port ...") gets
# them. Safe to run again; a run sets the passwords it is given.
# compose runs it once Redis is up; on Kubernetes the store-users Job does.
set -eu
set -f # the key patterns hold a *

rules() {
  echo "~$1* resetchannels -@all +@read +@write +@scripting +@connection -@dangerous +info +cluster|slots +cluster|shards +cluster|info"
}

for node in $REDIS_NODES; do
  cli="redis-cli -h ${node%:*} -p ${node##*:} --no-auth-warning --user ${REDIS_ADMIN_USER:-default} --pass $REDIS_ADMIN_PASSWORD"
  $cli ACL SETUSER session reset on ">$SESSION_REDIS_PASSWORD" $(rules auth:session:)
  $cli ACL SETUSER otp reset on ">$OTP_REDIS_PASSWORD" $(rules auth:otp:)
  $cli ACL SETUSER recovery reset on ">$RECOVERY_REDIS_PASSWORD" $(rules auth:recovery:)
  $cli ACL SETUSER gateway reset on ">$GATEWAY_REDIS_PASSWORD" $(rules auth:gateway:)
done
echo "redis users: session, otp, recovery, gateway on $REDIS_NODES"
