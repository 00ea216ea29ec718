import { randomBytes } from "node:crypto";
import { MemoryOutbox, type SmsMessage } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import { eventFromJson, systemOrigin } from "@auth/events";
import {
  createServiceClient,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { MemoryKeyValueStore } from "@auth/kv";
import { ActorKind, Factor, Outcome } from "@auth/proto/events";
import { OtpPurpose, OtpServiceService } from "@auth/proto/otp";
import { createLogger } from "@auth/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OtpHasher } from "./otp-codes.js";
import { designRules, Otps } from "./otps.js";
import { otpService } from "./server.js";
import { OtpStore } from "./store/otp-store.js";

const companyId = "c1";
const userId = "u-ann";
const sessionId = "s-1";
const phone = "+12025550123";
const byUser = { kind: ActorKind.USER, id: userId, certificateSubject: "", certificateSha256: "" };

/** The SMS sender: it keeps what it sends, and fails while `failing`. */
class Sender extends MemoryOutbox<SmsMessage> {
  failing = false;
  override async send(message: SmsMessage) {
    if (this.failing) throw new AuthError("service.unavailable", { detail: "provider down" });
    await super.send(message);
  }
  lastCode(): string {
    return /\d{6}/.exec(this.messages.at(-1)?.text ?? "")?.[0] ?? "";
  }
}

/**
 * The events the service records, in the in-process store's outbox (docs/decisions.md, "Security
 * events"), over plain text: the caller is taken for the gateway, the user for the actor.
 */
describe("Security events", () => {
  let kv: MemoryKeyValueStore;
  let now: number;
  let sender: Sender;
  let otps: Otps;
  let server: RunningGrpcServer;
  let otp: ServiceClient<typeof OtpServiceService>;
  /** The company's default_phone_region, as identity answers it: the phone's region unless a test moves it. */
  let homeRegion: string;

  beforeEach(async () => {
    homeRegion = "US";
    now = Date.now();
    kv = new MemoryKeyValueStore({ now: () => now });
    sender = new Sender();
    otps = new Otps(new OtpStore(kv), new OtpHasher(randomBytes(32)), designRules);
    const logger = createLogger("otp", "silent");
    const identity = {
      getSmsDelivery: async () => ({ phone, homeRegion, defaultLanguage: "en", texts: [] }),
      applyContactChange: async () => ({ applied: true }),
    };
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      transport: { kind: "plaintext" },
      logger,
      services: [
        otpService(
          otps,
          designRules,
          { identity, fallback: sender, http: { timeoutMs: 1_000, retries: 0 } },
          logger,
        ),
      ],
    });
    otp = createServiceClient(OtpServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 10_000,
      transport: { kind: "plaintext" },
      server: "otp",
    });
  });
  afterEach(async () => {
    otp.close();
    await server.stop(100);
    await kv.close();
  });

  const recorded = async () => (await kv.outbox.read(1_000)).map((entry) => entry.payload);
  const events = async () => (await recorded()).map(eventFromJson);
  /** Sends a code once the session's cooldown is over. */
  const send = (purpose = OtpPurpose.LOGIN, session = sessionId) => {
    now += designRules.cooldownMs;
    return otp.sendOtp({ companyId, userId, sessionId: session, purpose, language: "" });
  };
  const verify = (code: string) => otp.verifyOtp({ companyId, sessionId, otp: code });
  const wrong = (code: string) => (code === "000000" ? "111111" : "000000");
  const ofUser = {
    companyid: companyId,
    userid: userId,
    subject: userId,
    sessionid: sessionId,
    actor: byUser,
  };

  describe("auth.otp.sent", () => {
    it("is recorded for each code sent, with its purpose", async () => {
      await send(OtpPurpose.LOGIN);
      await send(OtpPurpose.RECOVERY, "s-2");
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "auth.otp.sent",
          source: "auth-suite/otp",
          ...ofUser,
          outcome: Outcome.SUCCEEDED,
          otpSent: { channel: "sms", purpose: "login" },
        }),
        expect.objectContaining({ sessionid: "s-2", otpSent: { channel: "sms", purpose: "recovery" } }),
      ]);
    });

    it("is not recorded for a send that failed, which leaves the earlier code as it was", async () => {
      await send();
      const earlier = sender.lastCode();
      sender.failing = true;
      await expect(send()).rejects.toMatchObject({ code: "service.unavailable" });
      expect(await events()).toHaveLength(1);
      expect((await verify(earlier)).valid).toBe(true);
    });
  });

  describe("auth.sms.refused", () => {
    it("is recorded for a code the company's limits refused, with the reason, the number's region and prefix, never the number", async () => {
      homeRegion = "GB";
      await expect(send()).rejects.toMatchObject({ code: "request.ratelimit.exceeded" });
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "auth.sms.refused",
          source: "auth-suite/otp",
          ...ofUser,
          outcome: Outcome.FAILED,
          smsRefused: { reason: "region", region: "US", prefix: "+1 202" },
        }),
      ]);
      for (const payload of await recorded()) expect(payload).not.toContain(phone.slice(1));
      expect(sender.messages).toEqual([]);
    });
  });

  describe("auth.second_factor.passed and .failed", () => {
    it("are recorded for a right code and a wrong one, as the check burns the code", async () => {
      await send();
      expect((await verify(sender.lastCode())).valid).toBe(true);
      await send();
      expect((await verify(wrong(sender.lastCode()))).valid).toBe(false);
      expect((await events()).filter((event) => event.type !== "auth.otp.sent")).toEqual([
        expect.objectContaining({
          type: "auth.second_factor.passed",
          ...ofUser,
          outcome: Outcome.SUCCEEDED,
          factor: { factor: Factor.SMS_CODE, reason: "", passkeyId: "" },
        }),
        expect.objectContaining({
          type: "auth.second_factor.failed",
          ...ofUser,
          outcome: Outcome.FAILED,
          factor: { factor: Factor.SMS_CODE, reason: "wrong", passkeyId: "" },
        }),
      ]);
    });

    it("are not recorded for a check that finds no code: burnt, used, or never sent", async () => {
      expect((await verify("123456")).valid).toBe(false);
      await send();
      const code = sender.lastCode();
      await verify(code);
      await verify(code);
      expect((await events()).map((event) => event.type)).toEqual([
        "auth.otp.sent",
        "auth.second_factor.passed",
      ]);
    });

    it("are recorded once for parallel checks of one code: the one that burnt it", async () => {
      let lost = 0;
      const compareAndSet = kv.compareAndSet.bind(kv);
      kv.compareAndSet = async (...write) => {
        const swapped = await compareAndSet(...write);
        if (!swapped) lost += 1;
        return swapped;
      };
      await send();
      const code = sender.lastCode();
      const asUser = (id: string) => ({ ...systemOrigin, actor: { ...byUser, id } });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => otps.verify(companyId, sessionId, code, asUser)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(lost).toBeGreaterThan(0);
      expect((await events()).map((event) => event.type)).toEqual([
        "auth.otp.sent",
        "auth.second_factor.passed",
      ]);
    });
  });

  it("never holds a code, the phone or a part of it", async () => {
    await send();
    const codes = [sender.lastCode()];
    await verify(wrong(codes[0] ?? ""));
    await send();
    codes.push(sender.lastCode());
    await verify(codes[1] ?? "");
    const payloads = await recorded();
    expect(payloads).toHaveLength(4);
    for (const payload of payloads)
      for (const secret of [...codes, phone, phone.slice(1)]) expect(payload).not.toContain(secret);
  });
});
