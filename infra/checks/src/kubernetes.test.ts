import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Job } from "kubernetes-models/batch/v1/Job";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { configProblems, processes } from "./config-schemas.js";

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [key: string]: unknown;
}

/** The Kubernetes schema of each kind the manifests use (kubernetes-models validates against it). */
const models: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "batch/v1/Job": Job,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/Secret": Secret,
  "v1/Service": Service,
};

const k8sDir = fileURLToPath(new URL("../../k8s", import.meta.url));
let objects: K8sObject[];
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const generated = (kind: string, prefix: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name.startsWith(`${prefix}-`)) as
    | (K8sObject & { data?: Record<string, string> })
    | undefined;

/**
 * kustomize folds long base64 values of Secrets over several lines; the API server's base64
 * decoding skips the line breaks, the schema's "byte" format does not.
 */
function unfoldSecretData(object: K8sObject): K8sObject {
  if (object.kind !== "Secret" || typeof object.data !== "object" || object.data === null) return object;
  const data = Object.fromEntries(
    Object.entries(object.data as Record<string, string>).map(([key, value]) => [
      key,
      value.replace(/\s+/g, ""),
    ]),
  );
  return { ...object, data };
}

beforeAll(() => {
  const rendered = execFileSync("kubectl", ["kustomize", k8sDir], { encoding: "utf8" });
  objects = parseAllDocuments(rendered).map((document) => unfoldSecretData(document.toJSON() as K8sObject));
});

describe("infra/k8s, rendered with kustomize", () => {
  it("holds only objects that are valid against the Kubernetes schemas", () => {
    expect(objects.length).toBeGreaterThan(30);
    for (const object of objects) {
      const Model = models[`${object.apiVersion}/${object.kind}`];
      expect(Model, `${object.apiVersion} ${object.kind}`).toBeDefined();
      expect(
        () => new (Model as NonNullable<typeof Model>)(object as never).validate(),
        `${object.kind}/${object.metadata.name}`,
      ).not.toThrow();
    }
  });

  it.each(processes)("gives %s a Deployment, a Service, an autoscaler and a disruption budget", (name) => {
    for (const kind of ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"]) {
      expect(find(kind, name), `${kind} ${name}`).toBeDefined();
    }
  });

  it.each(processes)("runs %s as non-root with probes and resources", (name) => {
    const deployment = find("Deployment", name) as unknown as Deployment;
    const pod = deployment.spec?.template.spec;
    const [container] = pod?.containers ?? [];
    expect(pod?.securityContext?.runAsNonRoot).toBe(true);
    expect(container?.readinessProbe).toBeDefined();
    expect(container?.livenessProbe).toBeDefined();
    expect(container?.resources?.requests?.cpu).toBeDefined();
    if (name === "gateway") expect(container?.readinessProbe?.httpGet?.path).toBe("/readyz");
    else expect(container?.readinessProbe?.grpc?.port).toBeGreaterThan(0);
  });

  it.each(processes)(
    "gives %s a configuration (ConfigMap and Secret) that its start-up check accepts",
    (name) => {
      const config = generated("ConfigMap", `${name}-config`)?.data ?? {};
      const secrets = Object.fromEntries(
        Object.entries(generated("Secret", `${name}-secrets`)?.data ?? {}).map(([key, value]) => [
          key,
          Buffer.from(value, "base64").toString("utf8"),
        ]),
      );
      expect(
        Object.keys(config).some((key) => key in secrets),
        "a setting is both config and secret",
      ).toBe(false);
      expect(configProblems(name, { ...config, ...secrets })).toEqual([]);
    },
  );

  it("has a migration Job for each PostgreSQL service", () => {
    expect(find("Job", "identity-migrate")).toBeDefined();
    expect(find("Job", "disclaimer-migrate")).toBeDefined();
  });
});
