import { BlockList, isIPv6 } from "node:net";
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";

/** A service a process calls: the *_ADDR variable naming it, and its host and port. */
export interface Callee {
  variable: string;
  host: string;
  port: number;
}

/** The services a process's environment points it at: `host:port` or a gRPC target `dns:///host:port`. */
export function calleesOf(env: Record<string, string>): Callee[] {
  return Object.entries(env)
    .filter(([variable]) => /^[A-Z]+_ADDR$/.test(variable))
    .map(([variable, value]) => {
      const [, host = "", port = ""] = /^(?:dns:\/\/\/)?([\w.-]+):(\d+)$/.exec(value) ?? [];
      return { variable, host, port: Number(port) };
    });
}

type Labels = Record<string, string>;
type Selector = NonNullable<INetworkPolicy["spec"]>["podSelector"];

function selects(selector: Selector | undefined, labels: Labels): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const value = labels[key];
    if (operator === "In") return value !== undefined && values.includes(value);
    if (operator === "NotIn") return value === undefined || !values.includes(value);
    if (operator === "Exists") return value !== undefined;
    if (operator === "DoesNotExist") return value === undefined;
    throw new Error(`unknown selector operator ${operator}`);
  });
  return byLabels && byExpressions;
}

/** The labels of the suite's namespace (kustomization.yaml's `namespace`), as Kubernetes sets them. */
export const suiteNamespace: Labels = { "kubernetes.io/metadata.name": "auth" };

/** A pod: its labels, its namespace's labels (the suite's when absent), and the port a caller reaches, by number and name. */
export interface Pod {
  labels: Labels;
  namespace?: Labels;
  port?: { number: number; name?: string };
}

/**
 * Whether the NetworkPolicies let `from` open a connection to `to`'s port, as Kubernetes decides it:
 * a pod no Ingress policy selects takes any connection; otherwise one rule of one policy that
 * selects it must name the caller and, when it names ports, the port. A peer names the pods its
 * podSelector selects in the namespaces its namespaceSelector selects ({}: every namespace), or in
 * the policy's own namespace (the suite's, `to`'s) without one.
 */
export function admits(policies: INetworkPolicy[], from: Pod, to: Pod): boolean {
  const isolating = policies.filter(
    (policy) =>
      selects(policy.spec?.podSelector, to.labels) &&
      (policy.spec?.policyTypes ?? ["Ingress"]).includes("Ingress"),
  );
  if (isolating.length === 0) return true;
  return isolating.some((policy) =>
    (policy.spec?.ingress ?? []).some((rule) => {
      const peer = (rule.from ?? []).some((p) => {
        if (p.ipBlock) return false;
        const namespace = from.namespace ?? suiteNamespace;
        const inNamespace = p.namespaceSelector
          ? selects(p.namespaceSelector, namespace)
          : selects({ matchLabels: to.namespace ?? suiteNamespace }, namespace);
        return inNamespace && (p.podSelector === undefined || selects(p.podSelector, from.labels));
      });
      const port =
        !rule.ports?.length ||
        rule.ports.some(
          ({ port, endPort }) =>
            port === undefined ||
            port === to.port?.name ||
            (typeof port === "number" &&
              to.port !== undefined &&
              to.port.number >= port &&
              to.port.number <= (endPort ?? port)),
        );
      return (!rule.from?.length || peer) && port;
    }),
  );
}

/** Where a pod connects: another pod (by its labels), or an address outside the cluster; a port and its protocol. */
export interface Destination {
  pod?: Pod;
  address?: string;
  port: number;
  protocol?: "TCP" | "UDP";
}

type IpBlock = NonNullable<
  NonNullable<NonNullable<INetworkPolicy["spec"]>["egress"]>[number]["to"]
>[number]["ipBlock"];

function inBlock(block: IpBlock, address: string): boolean {
  if (!block) return false;
  const family = isIPv6(address) ? "ipv6" : "ipv4";
  const listOf = (cidrs: string[]) => {
    const list = new BlockList();
    for (const cidr of cidrs) {
      const [network = "", prefix = ""] = cidr.split("/");
      if (isIPv6(network) === (family === "ipv6")) list.addSubnet(network, Number(prefix), family);
    }
    return list;
  };
  return listOf([block.cidr]).check(address, family) && !listOf(block.except ?? []).check(address, family);
}

/**
 * Whether the NetworkPolicies let `from` open a connection to `to`, as Kubernetes decides it: a pod
 * no Egress policy selects may connect anywhere; otherwise one rule of one policy that selects it
 * must name the destination (a pod by its selectors, in `from`'s namespace without a
 * namespaceSelector; an address outside the cluster by an ipBlock, its exceptions left out) and,
 * when it names ports, the port and protocol (TCP unless named).
 */
export function egressAdmits(policies: INetworkPolicy[], from: Pod, to: Destination): boolean {
  const isolating = policies.filter(
    (policy) =>
      selects(policy.spec?.podSelector, from.labels) && (policy.spec?.policyTypes ?? []).includes("Egress"),
  );
  if (isolating.length === 0) return true;
  const ownNamespace = from.namespace ?? suiteNamespace;
  return isolating.some((policy) =>
    (policy.spec?.egress ?? []).some((rule) => {
      const peer = (rule.to ?? []).some((p) => {
        if (p.ipBlock) return to.address !== undefined && inBlock(p.ipBlock, to.address);
        if (!to.pod) return false;
        const namespace = to.pod.namespace ?? suiteNamespace;
        const inNamespace = p.namespaceSelector
          ? selects(p.namespaceSelector, namespace)
          : selects({ matchLabels: ownNamespace }, namespace);
        return inNamespace && (p.podSelector === undefined || selects(p.podSelector, to.pod.labels));
      });
      const port =
        !rule.ports?.length ||
        rule.ports.some(
          ({ port, endPort, protocol }) =>
            (protocol ?? "TCP") === (to.protocol ?? "TCP") &&
            (port === undefined ||
              (typeof port === "number" && to.port >= port && to.port <= (endPort ?? port))),
        );
      return (!rule.to?.length || peer) && port;
    }),
  );
}
