import { redisAclRules } from "@auth/kv/acl";

/**
 * What infra/k8s/stores/redis-users.sh creates: per user, its key prefix and the variable of its
 * password. Throws when the script's rules are not those of packages/kv/src/acl.ts.
 */
export function redisRulesOfScript(script: string): Record<string, { prefix: string; password: string }> {
  const rules = /^rules\(\) \{\n\s+echo "(.+)"\n\}/m.exec(script)?.[1];
  const expected = redisAclRules("$1").join(" ");
  if (rules !== expected) throw new Error(`redis-users.sh's rules are "${rules}", not "${expected}"`);
  const users = [...script.matchAll(/ACL SETUSER (\w+) reset on ">\$(\w+)" \$\(rules ([\w:]+)\)/g)].map(
    ([, user, password, prefix]) => [user, { prefix, password }],
  );
  return Object.fromEntries(users);
}

/**
 * What infra/k8s/stores/postgres-roles.sql creates: the roles that log in without any power but
 * over the database they own, to which no one else may connect.
 */
export function postgresRolesOfScript(
  sql: string,
): Array<{ role: string; database: string; password: string }> {
  const owners = new Map(
    [...sql.matchAll(/^ALTER DATABASE (\w+) OWNER TO (\w+);$/gm)].map(([, database, role]) => [
      role,
      database,
    ]),
  );
  const closed = new Set(
    [...sql.matchAll(/^REVOKE ALL ON DATABASE (\w+) FROM PUBLIC;$/gm)].map(([, database]) => database),
  );
  return [
    ...sql.matchAll(/^ALTER ROLE (\w+) WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'(\w+)';$/gm),
  ].flatMap(([, role = "", password = ""]) => {
    const database = owners.get(role);
    return database && closed.has(database) ? [{ role, database, password }] : [];
  });
}
