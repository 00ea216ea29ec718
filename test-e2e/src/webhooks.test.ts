import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServiceClient, type ServiceClient } from "@auth/grpc-kit";
import { AuditServiceService, DeliveryState } from "@auth/proto/audit";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { loginSteps } from "@auth/testing/api";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

/**
 * The audit trail and webhooks end to end (docs/decisions.md, "Audit trail and webhooks"): the
 * suite's relays append the events to its events file, the audit service reads them, keeps them
 * and delivers them to a receiver on loopback (HTTPS under a CA of its own, 127.0.0.1 allowed by
 * WEBHOOK_ALLOWED_CIDRS), with retries a few hundred milliseconds apart.
 */

/** How long an event may take from its commit to the receiver on a loaded machine. */
const deliveredWithinMs = 60_000;

describe("webhooks and the audit trail of a company", () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let audit: ServiceClient<typeof AuditServiceService>;
  let company: TestCompany;
  let secret: string;
  let webhookId: string;

  /** A password login to authorized: its session token. */
  const signIn = async (user: TestUser) => {
    const steps = loginSteps((code, operation, options) =>
      call(code, operation, { ...options, gatewayUrl: suite.gatewayUrl }),
    );
    const answer = await steps.passwordStep(company, user);
    expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("authorized");
    return String(answer.body.session_token);
  };
  const loginsOf = (user: TestUser) => (received: WebhookReceiver["received"]) =>
    received.filter(({ event }) => event.type === "auth.login.succeeded" && event.userid === user.id);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "auth-e2e-webhooks-"));
    receiver = await startWebhookReceiver(dir);
    own = await startOwnSuite({
      audit: {
        WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32",
        WEBHOOK_CA_FILE: receiver.caFile,
        WEBHOOK_RETRY_BASE_MS: "200",
        WEBHOOK_RETRY_MAX_MS: "1000",
        WEBHOOK_POLL_MS: "100",
      },
    });
    suite = own.suite;
    const operator = operatorOf(suite);
    audit = createServiceClient(AuditServiceService, suite.addresses.audit, {
      deadlineMs: 10_000,
      adminToken: operator.adminToken,
      transport: operator.transport,
      server: "audit",
    });
    company = await createCompany({}, operator);
    const created = await audit.createWebhook({
      companyId: company.id,
      url: receiver.url,
      eventTypes: ["auth.login.succeeded", "auth.login.failed"],
      description: "e2e receiver",
    });
    secret = created.secret;
    webhookId = created.webhook?.id ?? "";
  });

  afterAll(async () => {
    audit?.close();
    await own?.stop();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("delivers a login's auth.login.succeeded once, signed with the webhook's secret, its webhook-id the event's id", async () => {
    const user = await createUser(company);
    await signIn(user);
    const [delivery] = await receiver.waitFor(
      (received) => (loginsOf(user)(received).length > 0 ? loginsOf(user)(received) : undefined),
      deliveredWithinMs,
    );
    expect(delivery).toBeDefined();
    const verified = new Webhook(secret).verify(delivery?.body ?? "", delivery?.headers ?? {});
    expect(verified).toMatchObject({ type: "auth.login.succeeded", userid: user.id });
    expect(delivery?.headers["webhook-id"]).toBe(delivery?.event.id);
    expect(delivery?.headers["content-type"]).toMatch(/^application\/json/);
    // Subscribed to logins only: the user's other events (the password check) are not sent.
    expect(new Set(receiver.received.map(({ event }) => event.type))).toEqual(
      new Set(["auth.login.succeeded"]),
    );
  });

  it("sends a delivery the receiver refused (503, 503) again until it answers 2xx, under the same webhook-id", async () => {
    const user = await createUser(company);
    receiver.reply(503, 503);
    await signIn(user);
    const attempts = await receiver.waitFor(
      (received) => (loginsOf(user)(received).length >= 3 ? loginsOf(user)(received) : undefined),
      deliveredWithinMs,
    );
    expect(attempts.map(({ status }) => status)).toEqual([503, 503, 204]);
    expect(new Set(attempts.map(({ headers }) => headers["webhook-id"])).size).toBe(1);
    // The audit service records the delivery once the receiver's 204 has reached it: after the receiver saw it.
    const succeeded = async () =>
      (
        await audit.listDeliveries({
          companyId: company.id,
          webhookId,
          state: DeliveryState.SUCCEEDED,
          pageSize: 100,
          pageToken: "",
        })
      ).deliveries.find(({ eventId }) => eventId === attempts[0]?.event.id);
    await expect.poll(succeeded, { timeout: deliveredWithinMs, interval: 100 }).toMatchObject({
      attempts: 3,
      lastStatus: 204,
    });
  });

  it("keeps the login in the audit trail: the operator lists it by user and type, the user sees it as their current session's", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    await receiver.waitFor(
      (received) => (loginsOf(user)(received).length > 0 ? true : undefined),
      deliveredWithinMs,
    );
    const { events } = await audit.listEvents({
      companyId: company.id,
      userId: user.id,
      types: ["auth.login.succeeded"],
      pageSize: 10,
      pageToken: "",
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "auth.login.succeeded", userid: user.id });
    const own = await call(company.code, "events", {
      apiKey: company.apiKey,
      token,
      body: {},
      gatewayUrl: suite.gatewayUrl,
    });
    expectSuccess(own, ["events"]);
    expect(own.body.events).toContainEqual(
      expect.objectContaining({ type: "auth.login.succeeded", outcome: "succeeded", current_session: true }),
    );
    expect(JSON.stringify(own.body)).not.toContain(token);
  });

  it("the audit service frozen (SIGSTOP): logins go on; thawed, it delivers every login committed meanwhile", async () => {
    const pid = suite.children.audit.pid;
    if (pid === undefined) throw new Error("the audit service is not running");
    const users = await Promise.all([createUser(company), createUser(company), createUser(company)]);
    process.kill(pid, "SIGSTOP");
    try {
      for (const user of users) await signIn(user);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    await receiver.waitFor(
      (received) => (users.every((user) => loginsOf(user)(received).length > 0) ? true : undefined),
      deliveredWithinMs,
    );
  });
});
