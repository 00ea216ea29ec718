import { createServer, type Server } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Every metric of the suite, in one registry per process, in the Prometheus format. */
export const registry = new Registry();

let collectingProcessMetrics = false;

/**
 * Adds the default process metrics to the registry, once, under the names stock dashboards and
 * alerts look for (process_*, nodejs_*). `serveMetrics` calls it: their event-loop monitor wakes
 * the process every 10 ms, about half a percent of a core for a process that does nothing else,
 * which a process no one scrapes does not pay (docs/performance.md, "What an idle suite costs").
 * Three of them are gauges named *_total, which Prometheus's naming rules forbid; each is the sum
 * of its by-type twin (nodejs_active_handles and so on), so nothing is lost without them.
 */
export function collectProcessMetrics(): void {
  if (collectingProcessMetrics) return;
  collectingProcessMetrics = true;
  collectDefaultMetrics({ register: registry });
  for (const name of [
    "nodejs_active_handles_total",
    "nodejs_active_requests_total",
    "nodejs_active_resources_total",
  ])
    registry.removeSingleMetric(name);
}

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const metrics = {
  httpRequests: new Counter({
    name: "auth_http_requests_total",
    help: "Gateway requests by endpoint, HTTP status and error code",
    labelNames: ["endpoint", "status", "error_code"] as const,
    registers: [registry],
  }),
  httpDuration: new Histogram({
    name: "auth_http_request_duration_seconds",
    help: "Gateway request latency by endpoint",
    labelNames: ["endpoint"] as const,
    buckets: latencyBuckets,
    registers: [registry],
  }),
  grpcServerCalls: new Counter({
    name: "auth_grpc_server_calls_total",
    help: "gRPC calls served, by method and outcome (ok or error code)",
    labelNames: ["method", "outcome"] as const,
    registers: [registry],
  }),
  grpcServerDuration: new Histogram({
    name: "auth_grpc_server_duration_seconds",
    help: "gRPC call latency by method",
    labelNames: ["method"] as const,
    buckets: latencyBuckets,
    registers: [registry],
  }),
  grpcCallsDenied: new Counter({
    name: "auth_grpc_calls_denied_total",
    help: "gRPC calls refused before their handler because the method's access table does not allow the caller, by method and caller",
    labelNames: ["method", "caller"] as const,
    registers: [registry],
  }),
  grpcClientCalls: new Counter({
    name: "auth_grpc_client_calls_total",
    help: "gRPC calls made, by service called, method and outcome (ok or error code)",
    labelNames: ["service", "method", "outcome"] as const,
    registers: [registry],
  }),
  serviceServing: new Gauge({
    name: "auth_gateway_service_serving",
    help: "1 when the service answered the gateway's last readiness check SERVING, else 0, by service: identity and session make /readyz, the others only show here",
    labelNames: ["service"] as const,
    registers: [registry],
  }),
  disclaimerCompaniesRead: new Gauge({
    name: "auth_gateway_disclaimer_companies_read_timestamp_seconds",
    help: "When the gateway last read which companies have disclaimers (Unix time): what it goes by while the disclaimer service cannot be reached",
    registers: [registry],
  }),
  secretsCompared: new Counter({
    name: "auth_secrets_compared_total",
    help: "Secrets compared with what is stored (passwords, control answers, backup codes, OTPs, TOTP codes, passkey assertions), by kind: what the budgets of checks let through",
    labelNames: ["kind"] as const,
    registers: [registry],
  }),
  otpsSent: new Counter({
    name: "auth_otps_sent_total",
    help: "One-time passwords sent by SMS, by purpose",
    labelNames: ["purpose"] as const,
    registers: [registry],
  }),
  smsRefused: new Counter({
    name: "auth_sms_refused_total",
    help: "SMS codes refused by a company's limits against SMS pumping, by reason (region, breaker, region_budget, company_budget) and the number's region (ZZ: none)",
    labelNames: ["reason", "region"] as const,
    registers: [registry],
  }),
  lockouts: new Counter({
    name: "auth_lockouts_total",
    help: "Users and login IDs locked out: the failed check that reached the company's lock-out count",
    registers: [registry],
  }),
  emailsSent: new Counter({
    name: "auth_emails_sent_total",
    help: "Recovery e-mails sent",
    registers: [registry],
  }),
  notifications: new Counter({
    name: "auth_notifications_total",
    help: 'Notices to users (docs/security.md, "Notifications"), by event, channel (email, sms, none) and outcome (sent, failed, skipped)',
    labelNames: ["event", "channel", "outcome"] as const,
    registers: [registry],
  }),
  redisCommands: new Counter({
    name: "auth_redis_commands_total",
    help: "Commands sent to Redis (a Lua script counts as one), by command",
    labelNames: ["command"] as const,
    registers: [registry],
  }),
  postgresQueries: new Counter({
    name: "auth_postgres_queries_total",
    help: "Statements sent to PostgreSQL (BEGIN and COMMIT included)",
    registers: [registry],
  }),
  storeErrors: new Counter({
    name: "auth_store_errors_total",
    help: "Store operations that failed because the store could not be reached, by store",
    labelNames: ["store"] as const,
    registers: [registry],
  }),
  eventsRelayed: new Counter({
    name: "auth_events_relayed_total",
    help: "Security events the relay took from the service's outbox, by source (the service) and outcome: published (the sink acknowledged it) or malformed (unreadable, dropped)",
    labelNames: ["source", "outcome"] as const,
    registers: [registry],
  }),
  eventsRelayDelay: new Histogram({
    name: "auth_events_relay_delay_seconds",
    help: "Time from an event's commit (its `time`) to the sink's acknowledgement, by source",
    labelNames: ["source"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  }),
  eventsRelayFailures: new Counter({
    name: "auth_events_relay_failures_total",
    help: "Batches of security events the relay could not publish or drop (sink or store failing), retried with back-off, by source",
    labelNames: ["source"] as const,
    registers: [registry],
  }),
  auditEventsRead: new Counter({
    name: "auth_audit_events_read_total",
    help: "Security events the audit service read from the stream, by outcome: stored (new), duplicate (stored before) or skipped (no company to keep it under)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  }),
  auditEventDelay: new Histogram({
    name: "auth_audit_event_delay_seconds",
    help: "Time from an event's commit (its `time`) to the audit store's commit of it",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  }),
  webhookDeliveries: new Counter({
    name: "auth_webhook_deliveries_total",
    help: "Webhook delivery attempts, by outcome: succeeded (2xx), failed (to be retried), dead (retries over, or 410)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  }),
};

/** Serves GET /metrics on its own port (for the services, whose main port speaks gRPC). */
export async function serveMetrics(host: string, port: number): Promise<Server> {
  collectProcessMetrics();
  const server = createServer(async (request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": registry.contentType }).end(await registry.metrics());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}
