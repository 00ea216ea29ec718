import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { configProblems, processes, redisServices, withTestCertificates } from "./config-schemas.js";
import { calleesOf } from "./reachability.js";
import { postgresRolesOfScript, redisRulesOfScript } from "./store-users.js";

interface ComposeService {
  build?: { target?: string };
  profiles?: string[];
  environment?: Record<string, string>;
  command?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(readFileSync(new URL("../../compose.yaml", import.meta.url), "utf8"), {
  merge: true,
}) as { services: Record<string, ComposeService> };
const storesDir = new URL("../../k8s/stores/", import.meta.url);
const dockerfile = readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8");

/** The ENV lines of a Dockerfile stage. */
function stageEnvironment(target: string): Record<string, string> {
  const stage = dockerfile.split(/^FROM /m).find((block) => new RegExp(`AS ${target}\\n`).test(block)) ?? "";
  const lines = [...stage.matchAll(/^ENV (.+)$/gm)].map((m) => m[1] ?? "");
  const pairs = lines.flatMap((line) => [...line.matchAll(/(\w+)=("[^"]*"|\S+)/g)]);
  return Object.fromEntries(pairs.map(([, key, value]) => [key, value?.replace(/^"|"$/g, "")]));
}

describe("the Dockerfile", () => {
  it.each(processes)("has a target %s that runs as a non-root user with tracing preloaded", (name) => {
    expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${name}$`, "m"));
    expect(dockerfile).toMatch(/^USER node$/m);
    const stage = dockerfile.split(/^FROM /m).find((block) => block.startsWith(`runtime AS ${name}\n`)) ?? "";
    expect(stage).toContain('CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]');
  });
});

describe("infra/compose.yaml", () => {
  it("runs PostgreSQL, Redis, an OpenTelemetry collector, the six processes and the one-shots that prepare them", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        ...processes,
        "otel-collector",
        "postgres",
        "postgres-roles",
        "redis",
        "redis-users",
        "pki",
        "authctl",
      ].sort(),
    );
  });

  it.each(processes)(
    "gives %s its certificate from the pki one-shot, and starts it only once that is made",
    (name) => {
      const service = compose.services[name];
      expect(service?.volumes).toContain("pki:/pki:ro");
      expect(service?.environment).toMatchObject({
        TLS_CA_FILE: "/pki/ca.crt",
        TLS_CERT_FILE: `/pki/${name}.crt`,
        TLS_KEY_FILE: `/pki/${name}.key`,
      });
      expect(service?.depends_on?.pki).toEqual({ condition: "service_completed_successfully" });
      expect(compose.services.pki?.command).toContain(name);
    },
  );

  it("runs authctl on demand from its image, with the operator's certificate, the admin token and examples/", () => {
    const authctl = compose.services.authctl;
    expect(authctl?.build?.target).toBe("authctl");
    expect(dockerfile).toMatch(/^FROM runtime AS authctl$/m);
    expect(authctl?.profiles).toEqual(["tools"]);
    expect(authctl?.environment).toMatchObject({
      AUTH_IDENTITY_ADDR: "identity:50051",
      AUTH_TLS_CERT_FILE: "/pki/operator.crt",
      AUTH_TLS_KEY_FILE: "/pki/operator.key",
    });
    expect(authctl?.environment?.AUTH_ADMIN_TOKEN).toBe(compose.services.identity?.environment?.ADMIN_TOKEN);
    expect(authctl?.volumes).toEqual(expect.arrayContaining(["pki:/pki:ro", "../examples:/examples:ro"]));
    expect(compose.services.pki?.command).toContain("operator");
  });

  it.each(redisServices)("logs %s in to Redis as its own ACL user, which redis-users creates", (name) => {
    const environment = compose.services[name]?.environment ?? {};
    expect(environment.REDIS_USERNAME).toBe(name);
    const passwordVariable = `${name.toUpperCase()}_REDIS_PASSWORD`;
    expect(environment.REDIS_PASSWORD).toBe(`\${${passwordVariable}:?set ${passwordVariable}}`);
    const script = readFileSync(new URL("redis-users.sh", storesDir), "utf8");
    expect(redisRulesOfScript(script)[name]).toEqual({ prefix: `auth:${name}:`, password: passwordVariable });
    expect(compose.services["redis-users"]?.environment?.[passwordVariable]).toBe(environment.REDIS_PASSWORD);
    expect(compose.services[name]?.depends_on?.["redis-users"]).toEqual({
      condition: "service_completed_successfully",
    });
  });

  it.each(["identity", "disclaimer"] as const)(
    "logs %s in to PostgreSQL as its own role, which postgres-roles creates",
    (name) => {
      const environment = compose.services[name]?.environment ?? {};
      const url = new URL(environment.DATABASE_URL ?? "");
      expect([url.username, url.pathname, url.password]).toEqual([`auth_${name}`, `/auth_${name}`, ""]);
      const sql = readFileSync(new URL("postgres-roles.sql", storesDir), "utf8");
      expect(postgresRolesOfScript(sql)).toContainEqual({
        role: `auth_${name}`,
        database: `auth_${name}`,
        password: `${name}_password`,
      });
      const passwordVariable = `${name.toUpperCase()}_DB_PASSWORD`;
      expect(environment.DATABASE_PASSWORD).toBe(`\${${passwordVariable}:?set ${passwordVariable}}`);
      expect(compose.services["postgres-roles"]?.environment?.[passwordVariable]).toBe(
        environment.DATABASE_PASSWORD,
      );
    },
  );

  it.each(processes)("points every *_ADDR of %s at the gRPC port of the service it names", (name) => {
    for (const { variable, host, port } of calleesOf(compose.services[name]?.environment ?? {})) {
      expect(compose.services[host]?.build?.target, variable).toBe(host);
      expect(Number(stageEnvironment(host).GRPC_PORT), variable).toBe(port);
    }
  });

  it("gives identity SESSION_ADDR as the gateway's, and starts it without waiting for session, which calls it in turn", () => {
    const identity = compose.services.identity;
    expect(identity?.environment?.SESSION_ADDR).toBe("session:50052");
    expect(identity?.environment?.SESSION_ADDR).toBe(compose.services.gateway?.environment?.SESSION_ADDR);
    expect(identity?.depends_on?.session).toBeUndefined();
    expect(compose.services.session?.environment?.IDENTITY_ADDR).toBe("identity:50051");
  });

  it("keeps Redis's default user behind the admin password", () => {
    expect(compose.services.redis?.command).toContain("--requirepass");
  });

  it.each(processes)(
    "builds %s from its Dockerfile target with a configuration its start-up check accepts",
    async (name) => {
      const service = compose.services[name];
      expect(service?.build?.target).toBe(name);
      // Compose fills ${VAR:?...} from the operator's environment (any value of the right shape will do
      // here), and ${VAR:-default} with its default.
      const environment = Object.fromEntries(
        Object.entries(service?.environment ?? {}).map(([key, value]) => [
          key,
          /^\$\{\w+:-(.*)\}$/.exec(String(value))?.[1] ??
            (String(value).startsWith("${") ? "a-32-character-placeholder-value-0000" : String(value)),
        ]),
      );
      if (environment.SECRETS_KEY) environment.SECRETS_KEY = Buffer.alloc(32, 1).toString("base64");
      expect(
        configProblems(
          name,
          await withTestCertificates({ ...stageEnvironment(name), ...environment }, "/pki"),
        ),
      ).toEqual([]);
    },
  );
});
