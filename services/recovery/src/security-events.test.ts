import { type MailMessage, MemoryOutbox } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import { eventFromJson, systemOrigin } from "@auth/events";
import {
  createServiceClient,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { MemoryKeyValueStore } from "@auth/kv";
import { ActorKind, Outcome } from "@auth/proto/events";
import { RecoveryServiceService } from "@auth/proto/recovery";
import { createLogger } from "@auth/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recoveryService } from "./server.js";
import { RecoveryStore } from "./store/recovery-store.js";

const companyId = "c1";
const userId = "u-ann";
const loginId = "ann.login@example.com";
const email = "ann.mail@example.com";
const byUser = { kind: ActorKind.USER, id: userId, certificateSubject: "", certificateSha256: "" };

/**
 * The events the service records, in the in-process store's outbox (docs/decisions.md, "Security
 * events"), over plain text: the caller is taken for the gateway, the user for the actor.
 */
describe("Security events", () => {
  let kv: MemoryKeyValueStore;
  let store: RecoveryStore;
  let mail: MemoryOutbox<MailMessage>;
  let refuse: boolean;
  let server: RunningGrpcServer;
  let recovery: ServiceClient<typeof RecoveryServiceService>;

  beforeEach(async () => {
    kv = new MemoryKeyValueStore();
    store = new RecoveryStore(kv, { now: () => Date.now() });
    mail = new MemoryOutbox<MailMessage>();
    refuse = false;
    const identity = {
      applyContactChange: async () => ({ applied: true }),
      getMailDelivery: async () => {
        if (refuse) throw new AuthError("request.ratelimit.exceeded", { retryAfterSeconds: 600 });
        return {
          email,
          companyName: "Acme",
          linkBase: "https://app.example/recover",
          defaultLanguage: "en",
          texts: [],
        };
      },
    };
    const logger = createLogger("recovery", "silent");
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      transport: { kind: "plaintext" },
      logger,
      services: [recoveryService(store, { identity, fallback: mail, timeoutMs: 5_000 }, logger)],
    });
    recovery = createServiceClient(RecoveryServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 10_000,
      transport: { kind: "plaintext" },
      server: "recovery",
    });
  });
  afterEach(async () => {
    recovery.close();
    await server.stop(100);
    await kv.close();
  });

  const recorded = async () => (await kv.outbox.read(1_000)).map((entry) => entry.payload);
  const events = async () => (await recorded()).map(eventFromJson);
  const send = () => recovery.sendRecoveryLink({ companyId, userId, loginId, language: "" });
  /** The token of the link last sent. */
  const lastToken = () => {
    const link = /https:\/\/\S+/.exec(mail.messages.at(-1)?.text ?? "")?.[0] ?? "";
    return new URL(link).searchParams.get("token") ?? "";
  };
  const redeem = (linkToken: string) => recovery.redeemRecoveryLink({ companyId, linkToken });
  const ofRecovery = (type: string) =>
    expect.objectContaining({
      type,
      source: "auth-suite/recovery",
      subject: userId,
      companyid: companyId,
      userid: userId,
      sessionid: "",
      outcome: Outcome.SUCCEEDED,
      actor: byUser,
      recovery: { method: "email" },
    });

  it("records auth.recovery.started as a link is issued, and auth.recovery.finished as it is redeemed, once", async () => {
    await send();
    const token = lastToken();
    await redeem(token);
    await expect(redeem(token)).rejects.toMatchObject({ code: "auth.token.invalid" });
    expect(await events()).toEqual([
      ofRecovery("auth.recovery.started"),
      ofRecovery("auth.recovery.finished"),
    ]);
  });

  it("records nothing for a link identity refuses to deliver, or one that is unknown", async () => {
    refuse = true;
    await expect(send()).rejects.toMatchObject({ code: "request.ratelimit.exceeded" });
    await expect(redeem("A".repeat(64))).rejects.toMatchObject({ code: "auth.token.invalid" });
    expect(await events()).toEqual([]);
  });

  it("records one auth.recovery.finished of parallel redemptions of a link: the one that used it up", async () => {
    await send();
    const token = lastToken();
    const asUser = (id: string) => ({ ...systemOrigin, actor: { ...byUser, id } });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => store.redeemLink(companyId, token, asUser)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect((await events()).map((event) => event.type)).toEqual([
      "auth.recovery.started",
      "auth.recovery.finished",
    ]);
  });

  it("never holds the link's token, the login ID or the e-mail", async () => {
    await send();
    const token = lastToken();
    await redeem(token);
    const payloads = await recorded();
    expect(payloads).toHaveLength(2);
    for (const payload of payloads)
      for (const secret of [token, loginId, email]) expect(payload).not.toContain(secret);
  });
});
