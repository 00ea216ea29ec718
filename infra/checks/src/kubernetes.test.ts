import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { livenessName } from "@auth/grpc-kit";
import { collectProcessMetrics, registry } from "@auth/telemetry";
import { promtoolCheck, promtoolInstalled } from "@auth/testing";
import { Certificate } from "@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate";
import { Issuer } from "@kubernetes-models/cert-manager/cert-manager.io/v1/Issuer";
import { PrometheusRule } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Job } from "kubernetes-models/batch/v1/Job";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { type INetworkPolicy, NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { configProblems, processes, redisServices, withTestCertificates } from "./config-schemas.js";
import { admits, calleesOf, egressAdmits, type Pod } from "./reachability.js";
import { postgresRolesOfScript, redisRulesOfScript } from "./store-users.js";

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [key: string]: unknown;
}

/** The Kubernetes schema of each kind the manifests use (kubernetes-models validates against it). */
const models: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "cert-manager.io/v1/Certificate": Certificate,
  "cert-manager.io/v1/Issuer": Issuer,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "batch/v1/Job": Job,
  "networking.k8s.io/v1/Ingress": Ingress,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "monitoring.coreos.com/v1/ServiceMonitor": ServiceMonitor,
  "monitoring.coreos.com/v1/PrometheusRule": PrometheusRule,
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

  it("serves the public API over TLS only: an Ingress to the gateway's HTTP port with a certificate of the public issuer, redirecting plain HTTP", () => {
    const ingress = find("Ingress", "gateway") as unknown as Ingress;
    const hosts = ingress.spec?.rules?.map((rule) => rule.host) ?? [];
    expect(hosts.length).toBeGreaterThan(0);
    expect(ingress.spec?.tls?.flatMap((tls) => tls.hosts ?? [])).toEqual(hosts);
    expect(ingress.spec?.tls?.[0]?.secretName).toBeTruthy();
    expect(ingress.metadata?.annotations).toMatchObject({
      "cert-manager.io/cluster-issuer": "public",
      "nginx.ingress.kubernetes.io/force-ssl-redirect": "true",
    });
    const backends = ingress.spec?.rules?.flatMap((rule) =>
      rule.http?.paths.map((path) => path.backend.service),
    );
    expect(backends).toEqual([{ name: "gateway", port: { name: "http" } }]);
    expect(ingress.spec?.ingressClassName).toBe("nginx");
  });

  it("lets the gateway believe X-Forwarded-For only from the ingress controller: TRUST_PROXY names the pod network's ranges, never a hop count, and only the controller's namespace reaches the HTTP port", () => {
    expect(generated("ConfigMap", "gateway-config")?.data?.TRUST_PROXY).toBe("uniquelocal");
    const policies = objects.filter((o) => o.kind === "NetworkPolicy") as unknown as INetworkPolicy[];
    const template = (find("Deployment", "gateway") as unknown as Deployment).spec?.template;
    const portOf = (name: string) => {
      const port = template?.spec?.containers[0]?.ports?.find((candidate) => candidate.name === name);
      return port && { number: port.containerPort, name: port.name };
    };
    const gateway = (port: "http" | "metrics"): Pod => ({
      labels: template?.metadata?.labels ?? {},
      port: portOf(port),
    });
    expect(gateway("http").port?.number).toBe(8080);
    const namespace = (name: string) => ({ "kubernetes.io/metadata.name": name });
    const controller: Pod = {
      labels: { "app.kubernetes.io/name": "ingress-nginx", "app.kubernetes.io/component": "controller" },
      namespace: namespace("ingress-nginx"),
    };
    // The kustomization's labels, selectors included, add part-of to every pod selector of the
    // policies, Prometheus's too.
    const prometheus: Pod = {
      labels: { "app.kubernetes.io/name": "prometheus", "app.kubernetes.io/part-of": "auth-suite" },
      namespace: namespace("monitoring"),
    };
    expect(admits(policies, controller, gateway("http"))).toBe(true);
    expect(admits(policies, prometheus, gateway("metrics"))).toBe(true);
    expect(admits(policies, prometheus, gateway("http"))).toBe(false);
    // Not a pod of another namespace, whatever its labels, nor any process of the suite.
    expect(admits(policies, { ...controller, namespace: namespace("default") }, gateway("http"))).toBe(false);
    for (const name of processes) {
      const labels =
        (find("Deployment", name) as unknown as Deployment).spec?.template.metadata?.labels ?? {};
      expect(admits(policies, { labels }, gateway("http")), name).toBe(false);
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
    "gives %s its certificate: a cert-manager Certificate with its SPIFFE ID, mounted where TLS_* point",
    (name) => {
      const certificate = find("Certificate", `${name}-tls`) as unknown as Certificate | undefined;
      expect(certificate?.spec?.uris).toEqual([`spiffe://auth-suite/${name}`]);
      expect(certificate?.spec?.secretName).toBe(`${name}-tls`);
      expect(certificate?.spec?.issuerRef).toMatchObject({ name: "auth-ca", kind: "Issuer" });
      // Renewed well before the end, with a new key each time.
      expect(certificate?.spec?.privateKey?.rotationPolicy).toBe("Always");
      if (name === "gateway") expect(certificate?.spec?.usages).toEqual(["digital signature", "client auth"]);
      else {
        expect(certificate?.spec?.usages).toContain("server auth");
        expect(certificate?.spec?.dnsNames).toContain(name);
      }
      const pod = (find("Deployment", name) as unknown as Deployment).spec?.template.spec;
      const volume = pod?.volumes?.find((v) => v.secret?.secretName === `${name}-tls`);
      const mount = pod?.containers[0]?.volumeMounts?.find((m) => m.name === volume?.name);
      expect(mount).toMatchObject({ mountPath: "/etc/auth/tls", readOnly: true });
      const config = generated("ConfigMap", `${name}-config`)?.data ?? {};
      expect([config.TLS_CA_FILE, config.TLS_CERT_FILE, config.TLS_KEY_FILE]).toEqual([
        "/etc/auth/tls/ca.crt",
        "/etc/auth/tls/tls.crt",
        "/etc/auth/tls/tls.key",
      ]);
      expect(config.GRPC_PLAINTEXT_DEV).toBeUndefined();
    },
  );

  it.each(processes.filter((name) => name !== "gateway"))(
    "probes %s on its plain-text health port, the only port without TLS, with reflection off; liveness by a health name that stays SERVING while its store is not reached",
    (name) => {
      const container = (find("Deployment", name) as unknown as Deployment).spec?.template.spec
        ?.containers[0];
      const config = generated("ConfigMap", `${name}-config`)?.data ?? {};
      const health = container?.ports?.find((port) => port.name === "health")?.containerPort;
      expect(health).toBe(Number(config.GRPC_HEALTH_PORT));
      expect(container?.readinessProbe?.grpc?.port).toBe(health);
      expect(container?.livenessProbe?.grpc?.port).toBe(health);
      expect(container?.livenessProbe?.grpc?.service).toBe(livenessName);
      expect(config.GRPC_REFLECTION).toBe("false");
    },
  );

  it("signs every certificate with the deployment's own CA, made by cert-manager", () => {
    expect(find("Certificate", "auth-ca")).toMatchObject({ spec: { isCA: true, secretName: "auth-ca" } });
    expect(find("Issuer", "auth-ca")).toMatchObject({ spec: { ca: { secretName: "auth-ca" } } });
    expect(find("Certificate", "operator-tls")).toMatchObject({
      spec: { uris: ["spiffe://auth-suite/operator"] },
    });
  });

  it.each(redisServices)(
    "gives %s a Redis ACL user of its own, limited to its key prefix, which the store-users Job creates",
    (name) => {
      const config = generated("ConfigMap", `${name}-config`)?.data ?? {};
      expect(config.REDIS_USERNAME).toBe(name);
      const script = generated("ConfigMap", "store-users-scripts")?.data?.["redis-users.sh"] ?? "";
      expect(redisRulesOfScript(script)[name]).toEqual({
        prefix: `auth:${name}:`,
        password: `${name.toUpperCase()}_REDIS_PASSWORD`,
      });
      const job = find("Job", "store-users") as unknown as Job;
      const container = job.spec?.template.spec?.containers.find((c) => c.name === "redis-users");
      const ref = container?.env?.find((e) => e.name === `${name.toUpperCase()}_REDIS_PASSWORD`)?.valueFrom
        ?.secretKeyRef;
      // kustomize appends a hash of the content to a generated Secret's name.
      expect(ref?.name).toMatch(new RegExp(`^${name}-secrets-\\w+$`));
      expect(ref?.key).toBe("REDIS_PASSWORD");
    },
  );

  it.each(["identity", "disclaimer", "audit"] as const)(
    "gives %s a PostgreSQL role of its own, owner of its database alone, which the store-users Job creates",
    (name) => {
      const config = generated("ConfigMap", `${name}-config`)?.data ?? {};
      const url = new URL(config.DATABASE_URL ?? "");
      expect([url.username, url.pathname, url.password]).toEqual([`auth_${name}`, `/auth_${name}`, ""]);
      const sql = generated("ConfigMap", "store-users-scripts")?.data?.["postgres-roles.sql"] ?? "";
      expect(postgresRolesOfScript(sql)).toContainEqual({
        role: `auth_${name}`,
        database: `auth_${name}`,
        password: `${name}_password`,
      });
      const job = find("Job", "store-users") as unknown as Job;
      const container = job.spec?.template.spec?.containers.find((c) => c.name === "postgres-roles");
      const ref = container?.env?.find((e) => e.name === `${name.toUpperCase()}_DB_PASSWORD`)?.valueFrom
        ?.secretKeyRef;
      // kustomize appends a hash of the content to a generated Secret's name.
      expect(ref?.name).toMatch(new RegExp(`^${name}-secrets-\\w+$`));
      expect(ref?.key).toBe("DATABASE_PASSWORD");
    },
  );

  it.each(processes)(
    "gives %s a configuration (ConfigMap and Secret) that its start-up check accepts",
    async (name) => {
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
      expect(
        configProblems(name, await withTestCertificates({ ...config, ...secrets }, "/etc/auth/tls")),
      ).toEqual([]);
    },
  );

  it.each(processes)(
    "gives %s a startupProbe, a preStop pause shorter than its grace period, and a spread over zones and nodes",
    (name) => {
      const pod = (find("Deployment", name) as unknown as Deployment).spec?.template.spec;
      const [container] = pod?.containers ?? [];
      expect(container?.startupProbe?.failureThreshold).toBeGreaterThan(1);
      if (name === "gateway") expect(container?.startupProbe?.httpGet?.path).toBe("/healthz");
      else expect(container?.startupProbe?.grpc?.service).toBe(livenessName);
      const pause = container?.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(pause).toBeGreaterThan(0);
      expect(pause).toBeLessThan(pod?.terminationGracePeriodSeconds ?? 0);
      const spread = pod?.topologySpreadConstraints ?? [];
      expect(spread.map((constraint) => constraint.topologyKey).sort()).toEqual([
        "kubernetes.io/hostname",
        "topology.kubernetes.io/zone",
      ]);
      for (const constraint of spread) {
        expect(constraint.labelSelector?.matchLabels).toMatchObject({ "app.kubernetes.io/name": name });
      }
    },
  );

  it("tags every image of the suite with the version of its process", () => {
    const directory = (image: string) =>
      image === "gateway" ? "gateway" : image === "authctl" ? "tools/authctl" : `services/${image}`;
    const images = objects
      .flatMap((object) => {
        const spec = (object as unknown as Deployment | Job).spec?.template?.spec;
        return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
      })
      .map((container) => container.image ?? "")
      .filter((image) => image.startsWith("auth/"));
    expect(images.length).toBeGreaterThanOrEqual(processes.length + 2);
    for (const image of images) {
      const [name, tag] = image.slice("auth/".length).split(":");
      const { version } = JSON.parse(
        readFileSync(new URL(`../../../${directory(name ?? "")}/package.json`, import.meta.url), "utf8"),
      ) as { version: string };
      expect(tag, image).toBe(version);
    }
  });

  it("lets the ServiceMonitor scrape the metrics port of every process's Service", () => {
    const monitor = find("ServiceMonitor", "auth-suite") as unknown as ServiceMonitor;
    const selector = monitor.spec.selector.matchLabels ?? {};
    const port = monitor.spec.endpoints?.[0]?.port;
    for (const name of processes) {
      const service = find("Service", name) as unknown as Service;
      expect(service.metadata?.labels, name).toMatchObject(selector);
      expect(
        service.spec?.ports?.map((p) => p.name),
        name,
      ).toContain(port);
    }
  });

  describe("alert rules", () => {
    const rules = () => (find("PrometheusRule", "auth-suite") as unknown as PrometheusRule).spec.groups ?? [];
    const expressions = () =>
      rules().flatMap((group) => (group.rules ?? []).map((rule) => String(rule.expr)));

    it("alert on errors, 503s by service, p99 latency, lock-outs, OTP sends, SMS refused against pumping, certificate expiry and dead webhook deliveries", () => {
      const alerts = rules().flatMap((group) => (group.rules ?? []).map((rule) => rule.alert));
      expect(alerts).toEqual(
        expect.arrayContaining([
          "AuthGatewayErrorRate",
          "AuthServiceUnavailable",
          "AuthGatewayLatencyHigh",
          "AuthLockoutsAboveBaseline",
          "AuthOtpSendsAboveBaseline",
          "AuthSmsPumpingSuspected",
          "AuthCertificateExpiring",
          "AuthWebhookDeliveriesDead",
        ]),
      );
    });

    it("name only metrics the processes export (or cert-manager's)", async () => {
      collectProcessMetrics();
      const exported = new Set((await registry.getMetricsAsJSON()).map((metric) => metric.name));
      const used = expressions().flatMap((expr) =>
        [...expr.matchAll(/\b((?:auth|process|nodejs)_[a-z0-9_]+?)(?:_bucket)?\b/g)].map((m) => m[1] ?? ""),
      );
      expect(used.length).toBeGreaterThan(0);
      for (const name of used) expect(exported, name).toContain(name);
    });

    it.skipIf(!promtoolInstalled())("pass promtool check rules", () => {
      const file = join(mkdtempSync(join(tmpdir(), "auth-rules-")), "rules.yaml");
      writeFileSync(file, stringify({ groups: rules() }));
      expect(promtoolCheck(["rules", file])).toBe("");
    });
  });

  it("holds a suspended create-company Job: authctl with the operator's certificate, the admin token and the policy Secret", () => {
    const job = find("Job", "create-company") as unknown as Job;
    expect(job.spec?.suspend).toBe(true);
    const pod = job.spec?.template.spec;
    const container = pod?.containers[0];
    expect(container?.image).toMatch(/^auth\/authctl:/);
    expect(container?.args?.slice(0, 2)).toEqual(["company", "create"]);
    expect(container?.args).toContain("--with-api-key");
    const token = container?.env?.find((e) => e.name === "AUTH_ADMIN_TOKEN")?.valueFrom?.secretKeyRef;
    expect(token?.name).toMatch(/^operator-secrets-\w+$/);
    expect(token?.key).toBe("ADMIN_TOKEN");
    expect(pod?.volumes?.map((volume) => volume.secret?.secretName).sort()).toEqual([
      "company-policy",
      "operator-tls",
    ]);
    const config = generated("ConfigMap", "create-company-config")?.data ?? {};
    expect(Object.keys(config).sort()).toEqual(["COMPANY_CODE", "COMPANY_NAME"]);
    // The identity NetworkPolicy lets it in.
    expect(JSON.stringify(find("NetworkPolicy", "identity-from-its-callers"))).toContain("authctl");
  });

  describe("calls between the processes", () => {
    const policies = () => objects.filter((o) => o.kind === "NetworkPolicy") as unknown as INetworkPolicy[];
    const podOf = (name: string): Pod => {
      const template = (find("Deployment", name) as unknown as Deployment).spec?.template;
      const grpc = template?.spec?.containers[0]?.ports?.find((port) => port.name === "grpc");
      return {
        labels: template?.metadata?.labels ?? {},
        port: grpc && { number: grpc.containerPort, name: grpc.name },
      };
    };
    const callees = (name: string) => calleesOf(generated("ConfigMap", `${name}-config`)?.data ?? {});

    it.each(processes)(
      "lets %s reach every service its *_ADDR names: the service's headless Service at its gRPC port, admitted by the NetworkPolicies, with a client certificate",
      (name) => {
        for (const { variable, host, port } of callees(name)) {
          const service = find("Service", host) as unknown as Service | undefined;
          expect(service?.spec?.clusterIP, variable).toBe("None");
          expect(service?.spec?.ports?.find((p) => p.port === port)?.targetPort, variable).toBe("grpc");
          expect(admits(policies(), podOf(name), podOf(host)), `${name} → ${host}`).toBe(true);
          const certificate = find("Certificate", `${name}-tls`) as unknown as Certificate | undefined;
          expect(certificate?.spec?.usages, variable).toContain("client auth");
        }
      },
    );

    it.each(processes.filter((name) => name !== "gateway"))(
      "admits to %s no process of the suite but those whose *_ADDR names it",
      (name) => {
        const admitted = processes.filter((caller) => admits(policies(), podOf(caller), podOf(name)));
        const callers = processes.filter((caller) => callees(caller).some(({ host }) => host === name));
        expect(admitted).toEqual(callers);
      },
    );

    it("gives identity SESSION_ADDR as the gateway's, and lets it reach session: it reserves each password check there (docs/security.md)", () => {
      const identity = generated("ConfigMap", "identity-config")?.data ?? {};
      expect(identity.SESSION_ADDR).toBe("dns:///session:50052");
      expect(identity.SESSION_ADDR).toBe(generated("ConfigMap", "gateway-config")?.data?.SESSION_ADDR);
      expect(admits(policies(), podOf("identity"), podOf("session"))).toBe(true);
      expect(admits(policies(), podOf("otp"), podOf("session"))).toBe(false);
    });
  });

  describe("NATS, where the services publish the security events", () => {
    const publishers = processes.filter((name) => name !== "gateway");
    const policies = () => objects.filter((o) => o.kind === "NetworkPolicy") as unknown as INetworkPolicy[];
    const natsConf = () => generated("ConfigMap", "nats-config")?.data?.["nats.conf"] ?? "";
    const secretsOf = (name: string) =>
      Object.fromEntries(
        Object.entries(generated("Secret", `${name}-secrets`)?.data ?? {}).map(([key, value]) => [
          key,
          Buffer.from(value, "base64").toString("utf8"),
        ]),
      );
    const natsPod = (): Pod => {
      const template = (find("StatefulSet", "nats") as unknown as StatefulSet).spec?.template;
      const client = template?.spec?.containers[0]?.ports?.find((port) => port.name === "client");
      return {
        labels: template?.metadata?.labels ?? {},
        port: client && { number: client.containerPort, name: client.name },
      };
    };
    const podOf = (name: string): Pod => ({
      labels: (find("Deployment", name) as unknown as Deployment).spec?.template.metadata?.labels ?? {},
    });

    it("runs three JetStream nodes: a StatefulSet with a volume each, routes to one another, a headless Service, a disruption budget that keeps a quorum", () => {
      const nats = find("StatefulSet", "nats") as unknown as StatefulSet;
      expect(nats.spec?.replicas).toBe(3);
      expect(nats.spec?.volumeClaimTemplates?.map((claim) => claim.metadata?.name)).toEqual(["data"]);
      expect(nats.spec?.template.spec?.securityContext?.runAsNonRoot).toBe(true);
      const service = find("Service", "nats") as unknown as Service;
      expect(service.spec?.clusterIP).toBe("None");
      expect(service.spec?.ports?.find((port) => port.name === "client")?.port).toBe(4222);
      expect(natsConf()).toMatch(/jetstream \{\s+store_dir: \/data/);
      for (const node of [0, 1, 2]) expect(natsConf()).toContain(`nats-route://nats-${node}.nats:6222`);
      expect(
        (find("PodDisruptionBudget", "nats") as unknown as PodDisruptionBudget).spec?.maxUnavailable,
      ).toBe(1);
      expect(find("Certificate", "nats-tls")).toMatchObject({
        spec: { issuerRef: { name: "auth-ca" }, dnsNames: expect.arrayContaining(["nats", "*.nats"]) },
      });
    });

    it.each(publishers)(
      "lets %s publish its own events only: a tls:// NATS_URL as its own NATS user, checked against the deployment's CA, admitted by the NetworkPolicies",
      (name) => {
        const config = generated("ConfigMap", `${name}-config`)?.data ?? {};
        const url = new URL(secretsOf(name).NATS_URL ?? "");
        expect([url.protocol, url.hostname, url.port, url.username]).toEqual(["tls:", "nats", "4222", name]);
        expect(config.NATS_CA_FILE).toBe("/etc/auth/tls/ca.crt");
        expect(config.NATS_STREAM_REPLICAS).toBe("3");
        const variable = `${name.toUpperCase()}_NATS_PASSWORD`;
        expect(secretsOf("nats")[variable]).toBe(decodeURIComponent(url.password));
        const user = new RegExp(`\\{\\s*user: ${name}, password: \\$${variable}[^}]*\\}[^}]*\\}`).exec(
          natsConf(),
        )?.[0];
        expect(user, `${name}'s NATS user`).toBeDefined();
        expect(user?.match(/auth\.events\.[a-z]+\.>/g)).toEqual([`auth.events.${name}.>`]);
        expect(admits(policies(), podOf(name), natsPod()), `${name} → nats`).toBe(true);
      },
    );

    it("admits to NATS's client port no other process of the suite", () => {
      expect(admits(policies(), podOf("gateway"), natsPod())).toBe(false);
    });
  });

  it.each(["identity", "disclaimer", "audit"])(
    "has a migration Job for %s, a PostgreSQL service, with its image and its configuration",
    (name) => {
      const container = (find("Job", `${name}-migrate`) as unknown as Job | undefined)?.spec?.template.spec
        ?.containers[0];
      expect(container?.image).toMatch(new RegExp(`^auth/${name}:`));
      expect(container?.command).toEqual(["node", "dist/migrate.js"]);
      expect(
        container?.envFrom?.map((source) => source.configMapRef?.name ?? source.secretRef?.name),
      ).toEqual([
        expect.stringMatching(new RegExp(`^${name}-config-\\w+$`)),
        expect.stringMatching(new RegExp(`^${name}-secrets-\\w+$`)),
      ]);
    },
  );

  describe("audit, the one process that connects where an operator says (webhooks)", () => {
    const policies = () => objects.filter((o) => o.kind === "NetworkPolicy") as unknown as INetworkPolicy[];
    const labelsOf = (name: string) =>
      (find("Deployment", name) as unknown as Deployment).spec?.template.metadata?.labels ?? {};
    const audit = (): Pod => ({ labels: labelsOf("audit") });
    const pod = (name: string): Pod => ({ labels: labelsOf(name) });
    const natsPod = (): Pod => ({
      labels: (find("StatefulSet", "nats") as unknown as StatefulSet).spec?.template.metadata?.labels ?? {},
    });
    const kubeDns: Pod = {
      labels: { "k8s-app": "kube-dns" },
      namespace: { "kubernetes.io/metadata.name": "kube-system" },
    };
    const config = () => generated("ConfigMap", "audit-config")?.data ?? {};

    it("reaches the session service, NATS and DNS, and no other process of the suite", () => {
      expect(egressAdmits(policies(), audit(), { pod: pod("session"), port: 50052 })).toBe(true);
      expect(egressAdmits(policies(), audit(), { pod: natsPod(), port: 4222 })).toBe(true);
      expect(egressAdmits(policies(), audit(), { pod: kubeDns, port: 53, protocol: "UDP" })).toBe(true);
      expect(egressAdmits(policies(), audit(), { pod: kubeDns, port: 53, protocol: "TCP" })).toBe(true);
      for (const name of processes.filter((process) => process !== "session" && process !== "audit")) {
        const grpc = (find("Deployment", name) as unknown as Deployment).spec?.template.spec?.containers[0]
          ?.ports?.[0]?.containerPort;
        expect(egressAdmits(policies(), audit(), { pod: pod(name), port: grpc ?? 0 }), name).toBe(false);
      }
      expect(egressAdmits(policies(), audit(), { pod: pod("session"), port: 9464 })).toBe(false);
    });

    it("reaches its PostgreSQL, outside the cluster, at the port of its DATABASE_URL", () => {
      expect(new URL(config().DATABASE_URL ?? "").port).toBe("5432");
      expect(egressAdmits(policies(), audit(), { address: "10.20.30.40", port: 5432 })).toBe(true);
    });

    it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"])(
      "sends webhooks to a public address, %s, over HTTPS (443) and nothing else",
      (address) => {
        expect(egressAdmits(policies(), audit(), { address, port: 443 })).toBe(true);
        expect(egressAdmits(policies(), audit(), { address, port: 80 })).toBe(false);
        expect(egressAdmits(policies(), audit(), { address, port: 8443 })).toBe(false);
      },
    );

    it.each([
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "100.64.0.1",
      "127.0.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "fd00::1",
      "fe80::1",
      "::1",
      "::ffff:10.0.0.1",
    ])("sends no webhook to %s, a private, loopback or link-local address, even over HTTPS", (address) => {
      expect(egressAdmits(policies(), audit(), { address, port: 443 })).toBe(false);
    });

    it("takes calls from the gateway and operators (authctl) alone, on its gRPC port, and Prometheus on its metrics port", () => {
      const grpc: Pod = { labels: labelsOf("audit"), port: { number: 50056, name: "grpc" } };
      const metrics: Pod = { labels: labelsOf("audit"), port: { number: 9464, name: "metrics" } };
      expect(admits(policies(), pod("gateway"), grpc)).toBe(true);
      expect(admits(policies(), { labels: { "app.kubernetes.io/name": "authctl" } }, grpc)).toBe(true);
      expect(admits(policies(), pod("gateway"), metrics)).toBe(false);
      const prometheus: Pod = {
        labels: { "app.kubernetes.io/name": "prometheus", "app.kubernetes.io/part-of": "auth-suite" },
        namespace: { "kubernetes.io/metadata.name": "monitoring" },
      };
      expect(admits(policies(), prometheus, metrics)).toBe(true);
      expect(admits(policies(), prometheus, grpc)).toBe(false);
    });

    it("allows no private range to webhooks unless the operator says so, and reads the events through the consumer NATS lets it use", () => {
      expect(config().WEBHOOK_ALLOWED_CIDRS).toBe("");
      expect(config().AUDIT_CONSUMER).toBe("audit");
      const natsConf = generated("ConfigMap", "nats-config")?.data?.["nats.conf"] ?? "";
      const user =
        /\{\s*user: audit, password: \$AUDIT_NATS_PASSWORD[^}]*\}[^}]*\}/.exec(natsConf)?.[0] ?? "";
      const consumerSubjects = [
        ...user.matchAll(/"\$JS\.(?:API\.CONSUMER\.[A-Z.]+|ACK\.)AUTH_EVENTS\.([^".]+)/g),
      ];
      expect(consumerSubjects.length).toBeGreaterThan(0);
      expect(new Set(consumerSubjects.map(([, consumer]) => consumer))).toEqual(new Set(["audit"]));
      // Only the read-side API of its own consumer: no stream deleted, purged, nor another consumer read.
      expect(user).not.toMatch(/STREAM\.(DELETE|PURGE)|CONSUMER\.DELETE/);
    });
  });
});
