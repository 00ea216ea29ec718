import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import type { ComposeService } from "./compose-volumes.js";
import { configProblems } from "./config-schemas.js";

/**
 * Only what presents the admin token (authctl) holds it; identity, session, disclaimer and audit
 * only compare it, and hold its SHA-256 (docs/operations.md, "The admin token"): a thief of their
 * environment gets nothing an operator's call could present.
 */
const comparers = ["identity", "session", "disclaimer", "audit"] as const;
const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");
/** `${ADMIN_TOKEN}`, `${ADMIN_TOKEN:?...}` or `$ADMIN_TOKEN`, and not ADMIN_TOKEN_SHA256. */
const plainToken = /\$\{?ADMIN_TOKEN(?![A-Z0-9_])/;

describe("infra/compose.yaml and the admin token", () => {
  const compose = parse(readFileSync(new URL("../../compose.yaml", import.meta.url), "utf8"), {
    merge: true,
  }) as { services: Record<string, ComposeService> };

  it("gives the plain token to authctl alone, which presents it", () => {
    const holders = Object.entries(compose.services)
      .filter(
        ([, service]) =>
          "ADMIN_TOKEN" in (service.environment ?? {}) || plainToken.test(JSON.stringify(service)),
      )
      .map(([name]) => name);
    expect(holders).toEqual(["authctl"]);
    expect(compose.services.authctl?.environment?.AUTH_ADMIN_TOKEN).toBe(`\${ADMIN_TOKEN:?set ADMIN_TOKEN}`);
  });

  it.each(comparers)("gives %s the token's SHA-256 (ADMIN_TOKEN_SHA256)", (name) => {
    expect(compose.services[name]?.environment?.ADMIN_TOKEN_SHA256).toBe(
      `\${ADMIN_TOKEN_SHA256:?set ADMIN_TOKEN_SHA256, the SHA-256 of ADMIN_TOKEN in hex}`,
    );
  });
});

interface Container {
  name: string;
  image?: string;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ secretRef?: { name: string }; configMapRef?: { name: string } }>;
}
interface K8sObject {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } };
}

describe("infra/k8s and the admin token", () => {
  let objects: K8sObject[];
  const decoded = (object: K8sObject | undefined): Record<string, string> =>
    Object.fromEntries(
      Object.entries(object?.data ?? {}).map(([key, value]) => [
        key,
        object?.kind === "Secret" ? Buffer.from(value.replace(/\s+/g, ""), "base64").toString("utf8") : value,
      ]),
    );
  const named = (kind: string, name: string) =>
    objects.find((object) => object.kind === kind && object.metadata.name === name);
  /** Each container of the Deployments and Jobs, with every value of a ConfigMap or Secret it is given. */
  const containers = () =>
    objects.flatMap((object) => {
      const pod = object.spec?.template?.spec;
      return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((container) => {
        const given: Record<string, string> = {};
        for (const source of container.envFrom ?? []) {
          const from = source.secretRef
            ? named("Secret", source.secretRef.name)
            : named("ConfigMap", source.configMapRef?.name ?? "");
          for (const [key, value] of Object.entries(decoded(from))) given[key] = value;
        }
        for (const variable of container.env ?? []) {
          const ref = variable.valueFrom?.secretKeyRef;
          const value = ref ? decoded(named("Secret", ref.name))[ref.key] : variable.value;
          if (value !== undefined) given[variable.name] = value;
        }
        return { workload: `${object.kind}/${object.metadata.name}`, image: container.image ?? "", given };
      });
    });
  /** The token the create-company Job presents. */
  const operatorsToken = () =>
    containers().find((container) => container.workload === "Job/create-company")?.given.AUTH_ADMIN_TOKEN;

  beforeAll(() => {
    const rendered = execFileSync(
      "kubectl",
      ["kustomize", fileURLToPath(new URL("../../k8s", import.meta.url))],
      {
        encoding: "utf8",
      },
    );
    objects = parseAllDocuments(rendered).map((document) => document.toJSON() as K8sObject);
  });

  it("gives the plain token to the authctl Job alone, in a Secret of its own", () => {
    const token = operatorsToken() ?? "";
    expect(token.length).toBeGreaterThanOrEqual(32);
    const holders = containers()
      .filter(({ given }) => "ADMIN_TOKEN" in given || Object.values(given).includes(token))
      .map(({ workload, image }) => `${workload} (${image.split(":")[0]})`);
    expect(holders).toEqual(["Job/create-company (auth/authctl)"]);
  });

  it.each(comparers)("gives %s the SHA-256 of the token the operator presents", (name) => {
    const deployment = containers().find((container) => container.workload === `Deployment/${name}`);
    expect(deployment?.given.ADMIN_TOKEN_SHA256).toBe(sha256(operatorsToken() ?? ""));
  });
});

describe("the services that compare the admin token", () => {
  const token = "t".repeat(43);
  /** The problems a process would stop with about the admin token (its other settings aside). */
  const adminTokenProblems = (name: (typeof comparers)[number], env: Record<string, string>) =>
    configProblems(name, { GRPC_PLAINTEXT_DEV: "true", ...env }).filter((problem) =>
      problem.startsWith("ADMIN_TOKEN"),
    );

  it.each(comparers)("%s refuses the plain token, naming ADMIN_TOKEN_SHA256, and takes the hash", (name) => {
    expect(adminTokenProblems(name, { ADMIN_TOKEN: token, ADMIN_TOKEN_SHA256: sha256(token) })).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN: is refused: .* set ADMIN_TOKEN_SHA256 /),
    ]);
    expect(adminTokenProblems(name, { ADMIN_TOKEN_SHA256: sha256(token) })).toEqual([]);
  });

  it.each(comparers)("%s says what ADMIN_TOKEN_SHA256 is when it is missing or not a SHA-256", (name) => {
    expect(adminTokenProblems(name, {})).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN_SHA256: is required: the SHA-256 of the admin token in hex/),
    ]);
    expect(adminTokenProblems(name, { ADMIN_TOKEN_SHA256: token })).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN_SHA256: expected the SHA-256 of the admin token in hex/),
    ]);
  });
});
