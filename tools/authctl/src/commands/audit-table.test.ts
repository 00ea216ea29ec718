import { eventFromJson, eventJson } from "@auth/events";
import { Delivery, DeliveryState, Webhook } from "@auth/proto/audit";
import { ActorKind, Event, Outcome } from "@auth/proto/events";
import { describe, expect, it } from "vitest";
import { table } from "../table.js";
import { deliveryRecords, eventRecords, webhookRecords } from "./audit-table.js";

/** The cells of the table's row that holds `text`. */
const rowWith = (printed: string, text: string) =>
  printed
    .split("\n")
    .find((line) => line.includes(text))
    ?.split("│")
    .map((cell) => cell.trim())
    .filter(Boolean);

const login = Event.fromJSON({
  specversion: "1.0",
  id: "0190f5a2-7b1c-7000-8000-000000000001",
  source: "auth-suite/session",
  type: "auth.login.succeeded",
  time: "2026-01-02T03:04:05Z",
  subject: "u-1",
  dataschema: "auth.events.v1",
  companyid: "c-1",
  userid: "u-1",
  sessionid: "s-1",
  traceid: "4bf92f3577b34da6a3ce929d0e0e4736",
  clientaddress: "203.0.113.7",
  outcome: "OUTCOME_SUCCEEDED",
  actor: { kind: "ACTOR_KIND_USER", id: "u-1" },
  login: { methods: ["FACTOR_PASSWORD", "FACTOR_SMS_CODE"], level: 2 },
});

const operatorsWrite: Event = {
  ...login,
  id: "0190f5a2-7b1c-7000-8000-000000000002",
  source: "auth-suite/identity",
  type: "admin.user.changed",
  userid: "u-2",
  clientaddress: "",
  outcome: Outcome.SUCCEEDED,
  actor: {
    kind: ActorKind.OPERATOR,
    id: "spiffe://auth-suite/operator",
    certificateSubject: "CN=ops-alice",
    certificateSha256: "ab".repeat(32),
  },
  login: undefined,
  adminChange: { resource: "user", resourceId: "u-2", action: "updated", fields: ["status"] },
};

describe("authctl audit events (text)", () => {
  it("prints time, type, outcome, user, actor and client address, one row per event", () => {
    const printed = table(
      [login, { ...login, id: "x", outcome: Outcome.FAILED, userid: "u-9" }],
      eventRecords,
    );
    expect(rowWith(printed, "client address")).toEqual([
      "time",
      "type",
      "outcome",
      "user",
      "actor",
      "client address",
    ]);
    expect(rowWith(printed, "u-1")).toEqual([
      "2026-01-02T03:04:05.000Z",
      "auth.login.succeeded",
      "succeeded",
      "u-1",
      "user",
      "203.0.113.7",
    ]);
    expect(rowWith(printed, "u-9")?.[2]).toBe("failed");
  });

  it("names an operator by the subject of the certificate the write came with, and the suite as system", () => {
    expect(rowWith(table([operatorsWrite], eventRecords), "u-2")?.[4]).toBe("operator CN=ops-alice");
    const expiry: Event = {
      ...login,
      userid: "u-3",
      actor: { kind: ActorKind.SYSTEM, id: "", certificateSubject: "", certificateSha256: "" },
    };
    expect(rowWith(table([expiry], eventRecords), "u-3")?.[4]).toBe("system");
  });

  it("says so when there are no events", () => {
    expect(table([], eventRecords)).toBe("no events");
  });
});

describe("authctl audit events --json", () => {
  it("is the event's CloudEvents JSON, as the stream carries it, which reads back to the same event", () => {
    const line = eventJson(login);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      specversion: "1.0",
      type: "auth.login.succeeded",
      datacontenttype: "application/json",
      companyid: "c-1",
      clientaddress: "203.0.113.7",
      data: { actor: { kind: "ACTOR_KIND_USER" }, login: { level: 2 } },
    });
    expect(eventFromJson(line)).toEqual(login);
    expect(eventRecords.toJSON(login)).toEqual(parsed);
  });
});

const webhook = Webhook.fromJSON({
  id: "w-1",
  companyId: "c-1",
  url: "https://hooks.acme.example/auth",
  eventTypes: ["auth.login.failed", "auth.account.locked"],
  description: "SIEM",
  enabled: true,
  createdAt: "2026-01-02T03:04:05Z",
});

describe("authctl webhooks list (text)", () => {
  it("prints each webhook's URL, event types and state, never a secret", () => {
    const printed = table([webhook], webhookRecords);
    expect(rowWith(printed, "url")).toEqual([
      "id",
      "url",
      "event types",
      "state",
      "description",
      "created",
      "old secret signs until",
    ]);
    expect(rowWith(printed, "w-1")).toEqual([
      "w-1",
      "https://hooks.acme.example/auth",
      "auth.login.failed,auth.account.locked",
      "enabled",
      "SIEM",
      "2026-01-02T03:04:05.000Z",
    ]);
    expect(printed).not.toContain("whsec_");
  });

  it("says why a webhook is disabled, and until when a rotated-out secret still signs", () => {
    const gone = { ...webhook, enabled: false, disabledReason: "gone" };
    expect(rowWith(table([gone], webhookRecords), "w-1")?.[3]).toBe("disabled (gone)");
    const rotated = { ...webhook, previousSecretExpiresAt: new Date("2026-01-03T03:04:05Z") };
    expect(rowWith(table([rotated], webhookRecords), "w-1")?.at(-1)).toBe("2026-01-03T03:04:05.000Z");
  });

  it("says so when the company has none", () => {
    expect(table([], webhookRecords)).toBe("no webhooks");
  });
});

const dead = Delivery.fromJSON({
  id: "d-1",
  webhookId: "w-1",
  eventId: "0190f5a2-7b1c-7000-8000-000000000001",
  eventType: "auth.login.failed",
  state: "DELIVERY_STATE_DEAD",
  attempts: 14,
  createdAt: "2026-01-02T03:04:05Z",
  lastAttemptAt: "2026-01-03T05:04:05Z",
  lastStatus: 503,
  lastError: "status 503",
});

describe("authctl webhooks deliveries (text)", () => {
  it("prints each delivery's event, state, attempts and how its last attempt went", () => {
    const printed = table([dead], deliveryRecords);
    expect(rowWith(printed, "attempts")).toEqual([
      "id",
      "created",
      "event",
      "state",
      "attempts",
      "last attempt",
      "last answer",
      "next attempt",
    ]);
    expect(rowWith(printed, "d-1")).toEqual([
      "d-1",
      "2026-01-02T03:04:05.000Z",
      "auth.login.failed 0190f5a2-7b1c-7000-8000-000000000001",
      "dead",
      "14",
      "2026-01-03T05:04:05.000Z",
      "status 503",
    ]);
  });

  it("shows the status of a success, the error of an attempt that got none, and when a pending one goes next", () => {
    const succeeded = { ...dead, state: DeliveryState.SUCCEEDED, lastStatus: 200, lastError: "" };
    expect(rowWith(table([succeeded], deliveryRecords), "d-1")?.slice(3)).toEqual([
      "succeeded",
      "14",
      "2026-01-03T05:04:05.000Z",
      "200",
    ]);
    const pending = {
      ...dead,
      state: DeliveryState.PENDING,
      lastStatus: 0,
      lastError: "timeout",
      nextAttemptAt: new Date("2026-01-03T06:04:05Z"),
    };
    expect(rowWith(table([pending], deliveryRecords), "d-1")?.slice(3)).toEqual([
      "pending",
      "14",
      "2026-01-03T05:04:05.000Z",
      "timeout",
      "2026-01-03T06:04:05.000Z",
    ]);
  });

  it("says so when there are none", () => {
    expect(table([], deliveryRecords)).toBe("no deliveries");
  });
});
