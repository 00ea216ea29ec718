/**
 * The Redis ACL rules of a service's own user (docs/operations.md, "Least privilege in the
 * stores"): the keys under its prefix and no others, the commands a key-value store and its client
 * need (reads, writes, scripts, the connection, INFO and CLUSTER INFO for the ready checks, the cluster's slot map),
 * and nothing that administers the server or lists keys. compose, the Kubernetes bootstrap Job and
 * the tests all take the rules from here (as `ACL SETUSER <user> >password <rules...>`).
 */
export function redisAclRules(keyPrefix: string): string[] {
  return [
    `~${keyPrefix}*`,
    "resetchannels",
    "-@all",
    "+@read",
    "+@write",
    "+@scripting",
    "+@connection",
    "-@dangerous",
    "+info",
    "+cluster|slots",
    "+cluster|shards",
    "+cluster|info",
  ];
}

/**
 * The whole definition of a service's user, from nothing: the words of a redis.conf `user` line,
 * of `ACL SETUSER`, and of redis-server's `--user` argument.
 */
export function redisAclUser(username: string, password: string, keyPrefix: string): string[] {
  return [username, "reset", "on", `>${password}`, ...redisAclRules(keyPrefix)];
}
