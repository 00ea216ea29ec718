import { ActorKind, Factor, Outcome } from "@auth/proto/events";
import { describe, expect, it } from "vitest";
import { eventCatalogue } from "./catalogue.js";
import { eventFromJson, eventJson, newEvent, systemOrigin } from "./event.js";

const userOrigin = {
  actor: { kind: ActorKind.USER, id: "u1", certificateSubject: "", certificateSha256: "" },
  traceId: "0af7651916cd43dd8448eb211c80319c",
  clientAddress: "203.0.113.7",
};

const failedLogin = (at = new Date("2026-11-26T10:00:00Z")) =>
  newEvent(
    "identity",
    {
      type: "auth.login.failed",
      companyId: "c1",
      userId: "u1",
      outcome: Outcome.FAILED,
      origin: userOrigin,
      detail: { factor: { factor: Factor.PASSWORD, reason: "wrong", passkeyId: "" } },
    },
    at,
  );

describe("an event's JSON form (CloudEvents structured mode)", () => {
  it("puts the attributes and extensions at the top level as plain values, the actor and detail in data", () => {
    const json = JSON.parse(eventJson(failedLogin()));
    expect(json).toMatchObject({
      specversion: "1.0",
      source: "auth-suite/identity",
      type: "auth.login.failed",
      time: "2026-11-26T10:00:00.000Z",
      subject: "u1",
      datacontenttype: "application/json",
      companyid: "c1",
      traceid: userOrigin.traceId,
      clientaddress: "203.0.113.7",
      outcome: "OUTCOME_FAILED",
      data: {
        actor: { kind: "ACTOR_KIND_USER", id: "u1" },
        factor: { factor: "FACTOR_PASSWORD", reason: "wrong" },
      },
    });
    for (const [name, value] of Object.entries(json)) {
      if (name === "data") continue;
      // CloudEvents: attribute names are lower-case letters and digits; values are not objects.
      expect(name).toMatch(/^[a-z0-9]{1,20}$/);
      expect(typeof value).not.toBe("object");
    }
  });

  it("reads back the event it wrote", () => {
    const event = failedLogin();
    expect(eventFromJson(eventJson(event))).toEqual(event);
  });
});

describe("newEvent", () => {
  it("gives each event a UUIDv7, and ids made in one process sort as they were made, even within a millisecond", () => {
    const made = Array.from({ length: 50 }, () => failedLogin(new Date("2026-11-26T10:00:00Z")).id);
    for (const id of made)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...made].sort()).toEqual(made);
  });

  it("refuses a type its service does not record, and a detail the catalogue does not name for the type", () => {
    const facts = { companyId: "c1", userId: "u1", outcome: Outcome.SUCCEEDED, origin: systemOrigin };
    expect(() => newEvent("otp", { ...facts, type: "auth.password.changed" })).toThrow(/does not record/);
    expect(() =>
      newEvent("identity", {
        ...facts,
        type: "auth.password.changed",
        detail: { recovery: { method: "email" } },
      }),
    ).toThrow(/carries no detail/);
  });

  it("knows every type of the catalogue by a name of the form <area>.<noun>.<verb>", () => {
    for (const type of Object.keys(eventCatalogue)) expect(type).toMatch(/^(auth|admin)\.[a-z_]+\.[a-z_]+$/);
  });
});
