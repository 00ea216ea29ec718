import { parseConfig } from "@auth/runtime";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { eventsEnvironment } from "./environment.js";
import { natsConnectOptions } from "./nats-connection.js";
import { subjectOf } from "./nats-sink.js";

const schema = z.object(eventsEnvironment);

describe("eventsEnvironment", () => {
  it("defaults to the events file of the embedded default, without NATS, read every 200 ms when busy and 800 ms when idle", () => {
    expect(parseConfig(schema, {})).toEqual({
      EVENTS_FILE: ".data/events.jsonl",
      EVENTS_POLL_MS: 200,
      EVENTS_IDLE_POLL_MS: 800,
      NATS_STREAM_REPLICAS: 1,
    });
  });

  it("takes a nats:// or tls:// NATS_URL, and refuses any other", () => {
    expect(parseConfig(schema, { NATS_URL: "nats://nats:4222" }).NATS_URL).toBe("nats://nats:4222");
    expect(parseConfig(schema, { NATS_URL: "tls://nats:4222" }).NATS_URL).toBe("tls://nats:4222");
    expect(() => parseConfig(schema, { NATS_URL: "http://nats:4222" })).toThrow(
      "NATS_URL: expected a nats:// or tls:// URL",
    );
  });

  it("never shows NATS_URL in an error, as it may hold a password", () => {
    expect(() => parseConfig(schema, { NATS_URL: "redis://user:hunter2@nats" })).toThrow(/^((?!hunter2).)*$/);
  });
});

describe("reaching NATS from its URL", () => {
  it("requires TLS for tls://, checked against the CA given, and leaves it to the server for nats://", () => {
    expect(natsConnectOptions("tls://nats.example:4222")).toMatchObject({
      servers: "nats.example:4222",
      tls: {},
    });
    expect(natsConnectOptions("tls://nats.example:4222", "/etc/auth/tls/ca.crt").tls).toEqual({
      caFile: "/etc/auth/tls/ca.crt",
    });
    expect(natsConnectOptions("nats://nats.example").tls).toBeUndefined();
    expect(natsConnectOptions("nats://nats.example").servers).toBe("nats.example:4222");
  });

  it("takes a user and password, or a token alone, from the URL", () => {
    expect(natsConnectOptions("nats://relay:p%40ss@nats:4222")).toMatchObject({
      user: "relay",
      pass: "p@ss",
    });
    expect(natsConnectOptions("nats://s3cr3t@nats:4222")).toMatchObject({ token: "s3cr3t" });
    expect(natsConnectOptions("nats://nats:4222")).not.toHaveProperty("user");
  });

  it("reconnects forever once connected", () => {
    expect(natsConnectOptions("nats://nats:4222").maxReconnectAttempts).toBe(-1);
  });

  it("publishes an event on auth.events.<service>.<type>", () => {
    expect(subjectOf({ source: "auth-suite/session", type: "auth.login.succeeded" })).toBe(
      "auth.events.session.auth.login.succeeded",
    );
  });
});
