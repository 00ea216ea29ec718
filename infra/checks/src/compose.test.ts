import { createPublicKey, X509Certificate } from "node:crypto";
import { readFileSync, rmSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { composeEnvironment, stageEnvironment } from "./compose-environment.js";
import { type ComposeService, ComposeVolumes } from "./compose-volumes.js";
import { configProblems, processes, redisServices, withTestCertificates } from "./config-schemas.js";
import { calleesOf } from "./reachability.js";
import { postgresRolesOfScript, redisRulesOfScript } from "./store-users.js";

const compose = parse(readFileSync(new URL("../../compose.yaml", import.meta.url), "utf8"), {
  merge: true,
}) as { services: Record<string, ComposeService> };
/** A service's environment without the variables it passes on from the operator's when set there (`NAME:` with no value). */
const setEnvironment = (service: ComposeService | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(service?.environment ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== null,
    ),
  );
const storesDir = new URL("../../k8s/stores/", import.meta.url);
const dockerfile = readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8");

describe("the Dockerfile", () => {
  it.each(processes)("has a target %s that runs as a non-root user with tracing preloaded", (name) => {
    expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${name}$`, "m"));
    expect(dockerfile).toMatch(/^USER node$/m);
    const stage = dockerfile.split(/^FROM /m).find((block) => block.startsWith(`runtime AS ${name}\n`)) ?? "";
    expect(stage).toContain('CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]');
  });
});

describe("infra/compose.yaml", () => {
  it("runs PostgreSQL, Redis, an OpenTelemetry collector, the seven processes and the one-shots that prepare them", () => {
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
    "gives %s its certificate from the pki one-shot in a volume of its own, and starts it only once that is made",
    (name) => {
      const service = compose.services[name];
      expect(service?.volumes?.[0]).toBe(`tls-${name}:/etc/auth/tls:ro`);
      expect(service?.environment).toMatchObject({
        TLS_CA_FILE: "/etc/auth/tls/ca.crt",
        TLS_CERT_FILE: "/etc/auth/tls/tls.crt",
        TLS_KEY_FILE: "/etc/auth/tls/tls.key",
      });
      expect(service?.depends_on?.pki).toEqual({ condition: "service_completed_successfully" });
      expect(compose.services.pki?.command).toContain(name);
      expect(compose.services.pki?.volumes).toContain(`tls-${name}:/tls/${name}`);
    },
  );

  it.each(processes)(
    "mounts in %s no volume but its certificate's and, for a service, the events file the relays append to and audit reads",
    (name) => {
      const service = compose.services[name];
      const events = "events:/var/lib/auth/events";
      expect(service?.volumes?.slice(1)).toEqual(name === "gateway" ? [] : [events]);
      if (name !== "gateway") {
        const file = service?.environment?.EVENTS_FILE ?? "";
        expect(file.startsWith("/var/lib/auth/events/")).toBe(true);
        expect(stageEnvironment(name).EVENTS_FILE).toBeUndefined();
      }
      // A new volume takes the owner of its directory in the image: the processes' user.
      expect(dockerfile).toContain(
        "RUN mkdir -p /var/lib/auth/events && chown node:node /var/lib/auth/events",
      );
    },
  );

  it("runs authctl on demand from its image, with the operator's certificate, the admin token and examples/", () => {
    const authctl = compose.services.authctl;
    expect(authctl?.build?.target).toBe("authctl");
    expect(dockerfile).toMatch(/^FROM runtime AS authctl$/m);
    expect(authctl?.profiles).toEqual(["tools"]);
    expect(authctl?.environment).toMatchObject({
      AUTH_IDENTITY_ADDR: "identity:50051",
      AUTH_TLS_CA_FILE: "/etc/auth/tls/ca.crt",
      AUTH_TLS_CERT_FILE: "/etc/auth/tls/tls.crt",
      AUTH_TLS_KEY_FILE: "/etc/auth/tls/tls.key",
      AUTH_ADMIN_TOKEN: `\${ADMIN_TOKEN:?set ADMIN_TOKEN}`,
    });
    expect(authctl?.volumes).toEqual(["tls-operator:/etc/auth/tls:ro", "../examples:/examples:ro"]);
    expect(compose.services.pki?.command).toContain("operator");
    expect(compose.services.pki?.volumes).toContain("tls-operator:/tls/operator");
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

  it.each(["identity", "disclaimer", "audit"] as const)(
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
    for (const { variable, host, port } of calleesOf(setEnvironment(compose.services[name]))) {
      expect(compose.services[host]?.build?.target, variable).toBe(host);
      expect(Number(stageEnvironment(host).GRPC_PORT), variable).toBe(port);
    }
  });

  it("gives identity SESSION_ADDR as the gateway's, and starts it without waiting for session (channels connect at the first call)", () => {
    const identity = compose.services.identity;
    expect(identity?.environment?.SESSION_ADDR).toBe("session:50052");
    expect(identity?.environment?.SESSION_ADDR).toBe(compose.services.gateway?.environment?.SESSION_ADDR);
    expect(identity?.depends_on?.session).toBeUndefined();
  });

  it('gives the session service no other service\'s address: it calls none (docs/security.md, "The limits a caller sends")', () => {
    const session = compose.services.session?.environment ?? {};
    expect(Object.keys(session).filter((variable) => variable.endsWith("_ADDR"))).toEqual([]);
  });

  it("keeps Redis's default user behind the admin password", () => {
    expect(compose.services.redis?.command).toContain("--requirepass");
  });

  /** What an operator puts in infra/.env (this file's header), with either choice of senders. */
  const operatorEnvironments = {
    "the dev senders": { MAIL_SENDER: "dev", SMS_SENDER: "dev" },
    "an SMTP server and an SMS provider": {
      MAIL_SENDER: "smtp",
      SMTP_URL: "smtps://mailer:secret@smtp.example.com:465",
      MAIL_FROM: "Acme <no-reply@acme.example>",
      SMS_SENDER: "http",
      SMS_HTTP_URL: "https://sms.example.com/send",
      SMS_HTTP_TOKEN: "a-token",
    },
  };

  it.each(
    processes.flatMap((name) => Object.keys(operatorEnvironments).map((senders) => [name, senders] as const)),
  )(
    "builds %s from its Dockerfile target with a configuration its start-up check accepts, with %s",
    async (name, senders) => {
      const service = compose.services[name];
      expect(service?.build?.target).toBe(name);
      const operator: Record<string, string> = {
        ...operatorEnvironments[senders as keyof typeof operatorEnvironments],
        SECRETS_KEY: Buffer.alloc(32, 1).toString("base64"),
        AUDIT_SECRETS_KEY: Buffer.alloc(32, 2).toString("base64"),
        ADMIN_TOKEN_SHA256: "9f".repeat(32),
      };
      // For what the operator sets above, that value; any value of the right shape will do for the others.
      const environment = composeEnvironment(service, operator, "a-32-character-placeholder-value-0000");
      expect(
        configProblems(
          name,
          await withTestCertificates({ ...stageEnvironment(name), ...environment }, "/etc/auth/tls"),
        ),
      ).toEqual([]);
    },
  );

  it.each([
    ["identity", ["MAIL_SENDER", "SMS_SENDER"]],
    ["otp", ["SMS_SENDER"]],
    ["recovery", ["MAIL_SENDER"]],
  ] as const)("makes the operator choose the senders of %s, with no default", (name, variables) => {
    const environment = compose.services[name]?.environment ?? {};
    for (const variable of variables)
      expect(environment[variable]).toMatch(new RegExp(`^\\$\\{${variable}:\\?set ${variable}, `));
    const senders = Object.entries(compose.services)
      .filter(([, service]) =>
        Object.keys(service.environment ?? {}).some((key) => /^(MAIL|SMS)_SENDER$/.test(key)),
      )
      .map(([service]) => service);
    expect(senders.sort()).toEqual(["identity", "otp", "recovery"]);
  });
});

/** Whose certificate each container presents: a process its own, authctl the operator's. */
const holderOf: Record<string, string> = {
  ...Object.fromEntries(processes.map((name) => [name, name])),
  authctl: "operator",
};
const certificateFileOf = (name: string) => {
  const environment = compose.services[name]?.environment ?? {};
  return environment.TLS_CERT_FILE ?? environment.AUTH_TLS_CERT_FILE ?? undefined;
};

describe("infra/compose.yaml's keys: a container holds the CA certificate and its own key pair, and nothing else", () => {
  const volumes = new ComposeVolumes(compose.services);
  const read = (file: string) => readFileSync(file, "utf8");
  const privateKeysSeenBy = (name: string) =>
    [...volumes.filesSeenBy(name)].filter(([, file]) => read(file).includes("PRIVATE KEY-----"));
  let caCertificate: X509Certificate;

  // The pki job, run as its container runs it: what it writes into each volume is what the
  // services mounting that volume read. Its files' owner is this test's user here, not the image's.
  beforeAll(() => {
    const { uid, gid } = userInfo();
    volumes.run("pki", (argument, previous) => (previous === "--owner" ? `${uid}:${gid}` : argument));
    const caFile = volumes.hostPathIn("identity", compose.services.identity?.environment?.TLS_CA_FILE ?? "");
    caCertificate = new X509Certificate(read(caFile ?? ""));
  }, testBudgets.hookMs);

  afterAll(() => rmSync(volumes.root, { recursive: true, force: true }));

  it.each(Object.keys(compose.services).filter((name) => name !== "pki"))(
    "lets %s read no private key but the one of the certificate it presents",
    (name) => {
      const certificateFile = certificateFileOf(name);
      const hostFile = certificateFile && volumes.hostPathIn(name, certificateFile);
      const own = hostFile ? new X509Certificate(read(hostFile)).publicKey : undefined;
      const foreign = privateKeysSeenBy(name)
        .filter(([, file]) => !own || !createPublicKey(read(file)).equals(own))
        .map(([path]) => path);
      expect(foreign).toEqual([]);
    },
  );

  it("keeps the CA's private key in the pki job's volume alone", () => {
    const holders = Object.keys(compose.services).filter((name) =>
      privateKeysSeenBy(name).some(([, file]) => createPublicKey(read(file)).equals(caCertificate.publicKey)),
    );
    expect(holders).toEqual(["pki"]);
  });

  it.each(Object.keys(holderOf))(
    "gives %s the CA certificate and its own key pair where its TLS settings point, its key readable by its user alone",
    (name) => {
      const environment = compose.services[name]?.environment ?? {};
      const prefix = name === "authctl" ? "AUTH_TLS" : "TLS";
      const [caFile, certificateFile, keyFile] = ["CA_FILE", "CERT_FILE", "KEY_FILE"].map((setting) =>
        volumes.hostPathIn(name, environment[`${prefix}_${setting}`] ?? ""),
      );
      const ca = new X509Certificate(read(caFile ?? ""));
      const certificate = new X509Certificate(read(certificateFile ?? ""));
      expect(ca.ca && ca.publicKey.equals(caCertificate.publicKey)).toBe(true);
      expect(certificate.verify(ca.publicKey)).toBe(true);
      expect(certificate.subjectAltName).toContain(`URI:spiffe://auth-suite/${holderOf[name]}`);
      expect(createPublicKey(read(keyFile ?? "")).equals(certificate.publicKey)).toBe(true);
      expect(statSync(keyFile ?? "").mode & 0o777).toBe(0o400);
    },
  );

  it("runs the pki job as root, as Docker's new volumes need, giving each holder's files to the images' node user", () => {
    const pki = compose.services.pki;
    expect(pki?.user).toBe("root");
    const command = pki?.command ?? [];
    expect(command[command.indexOf("--owner") + 1]).toBe("1000:1000");
    expect(readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8")).toMatch(
      /^ARG NODE_IMAGE=node:/m,
    );
  });
});
