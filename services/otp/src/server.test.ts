import { randomBytes } from "node:crypto";
import { MemoryOutbox, type SmsMessage } from "@auth/delivery";
import {
  createServiceClient,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { MemoryKeyValueStore, systemClock } from "@auth/kv";
import type { ApplyContactChangeRequest, GetSmsDeliveryResponse } from "@auth/proto/identity";
import { ContactKind } from "@auth/proto/identity";
import { OtpPurpose, OtpServiceService } from "@auth/proto/otp";
import { createLogger } from "@auth/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OtpHasher } from "./otp-codes.js";
import { designRules, Otps } from "./otps.js";
import { otpService } from "./server.js";
import { OtpStore } from "./store/otp-store.js";

/** The company as identity answers a code's delivery: French by default, its own German login text. */
const answer: GetSmsDeliveryResponse = {
  phone: "+12025550123",
  homeRegion: "US",
  defaultLanguage: "fr",
  texts: [{ language: "de", namespace: "sms", key: "login", text: "ACME: {code}" }],
};
const outbox = new MemoryOutbox<SmsMessage>();
/** The changes of phone identity was asked to apply, and what it answers. */
const applied: ApplyContactChangeRequest[] = [];
let pending = true;
let server: RunningGrpcServer;
let otp: ServiceClient<typeof OtpServiceService>;

beforeAll(async () => {
  const logger = createLogger("otp", "silent");
  const otps = new Otps(
    new OtpStore(new MemoryKeyValueStore(systemClock)),
    new OtpHasher(randomBytes(32)),
    designRules,
  );
  server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    transport: { kind: "plaintext" },
    logger,
    services: [
      otpService(
        otps,
        designRules,
        {
          identity: {
            getSmsDelivery: async () => answer,
            applyContactChange: async (request) => {
              applied.push(request);
              return { applied: pending };
            },
          },
          fallback: outbox,
          http: { timeoutMs: 1_000, retries: 0 },
        },
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

afterAll(async () => {
  otp.close();
  await server.stop(100);
});

/** The text of the SMS a SendOtp of a new session sends. */
async function smsOf(purpose: OtpPurpose, language: string): Promise<string> {
  const sessionId = randomBytes(8).toString("hex");
  await otp.sendOtp({ companyId: "c1", userId: "u1", sessionId, purpose, language });
  return outbox.messages.at(-1)?.text ?? "";
}

describe('SendOtp words the SMS in the request\'s language (docs/decisions.md, "Languages")', () => {
  it("in the language the request names, with the company's text where it has one in that language", async () => {
    expect(await smsOf(OtpPurpose.LOGIN, "de")).toMatch(/^ACME: \d{6}$/);
    expect(await smsOf(OtpPurpose.RECOVERY, "de")).toMatch(
      /^Ihr Code zur Wiederherstellung des Zugangs lautet \d{6}\./,
    );
    expect(await smsOf(OtpPurpose.LOGIN, "en")).toMatch(
      /^Your login code is \d{6}\. It expires in 5 minutes\./,
    );
  });

  it("in the company's default language identity answers when the request names none", async () => {
    expect(await smsOf(OtpPurpose.LOGIN, "")).toMatch(/^Votre code de connexion est \d{6}\./);
  });
});

describe("VerifyOtp of a phone change's code (docs/api-contract.md, Changing the phone or the e-mail)", () => {
  const sessionOf = async (purpose: OtpPurpose) => {
    const sessionId = randomBytes(8).toString("hex");
    await otp.sendOtp({ companyId: "c1", userId: "u1", sessionId, purpose, language: "en" });
    return { sessionId, code: /\d{6}/.exec(outbox.messages.at(-1)?.text ?? "")?.[0] ?? "" };
  };

  it("sends the code worded for the new phone, and a right code has identity apply the phone it went to", async () => {
    applied.length = 0;
    pending = true;
    const { sessionId, code } = await sessionOf(OtpPurpose.PHONE_CHANGE);
    expect(outbox.messages.at(-1)?.text).toMatch(/^Your code to confirm this phone number/);
    const verified = await otp.verifyOtp({
      companyId: "c1",
      sessionId,
      otp: code,
      purpose: OtpPurpose.PHONE_CHANGE,
    });
    expect(verified.valid).toBe(true);
    expect(applied).toEqual([
      { companyId: "c1", userId: "u1", kind: ContactKind.PHONE, address: answer.phone },
    ]);
  });

  it("is not right when identity no longer holds the change pending", async () => {
    applied.length = 0;
    pending = false;
    const { sessionId, code } = await sessionOf(OtpPurpose.PHONE_CHANGE);
    const verified = await otp.verifyOtp({
      companyId: "c1",
      sessionId,
      otp: code,
      purpose: OtpPurpose.PHONE_CHANGE,
    });
    expect(verified.valid).toBe(false);
    expect(applied).toHaveLength(1);
  });

  it("never takes a login's code for a phone change's, nor the reverse, and applies nothing", async () => {
    applied.length = 0;
    pending = true;
    const login = await sessionOf(OtpPurpose.LOGIN);
    const asChange = await otp.verifyOtp({
      companyId: "c1",
      sessionId: login.sessionId,
      otp: login.code,
      purpose: OtpPurpose.PHONE_CHANGE,
    });
    const change = await sessionOf(OtpPurpose.PHONE_CHANGE);
    const asLogin = await otp.verifyOtp({ companyId: "c1", sessionId: change.sessionId, otp: change.code });
    expect([asChange.valid, asLogin.valid]).toEqual([false, false]);
    expect(applied).toEqual([]);
  });
});
