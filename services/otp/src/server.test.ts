import { randomBytes } from "node:crypto";
import { MemoryOutbox, type SmsMessage } from "@auth/delivery";
import {
  createServiceClient,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { MemoryKeyValueStore, systemClock } from "@auth/kv";
import type { GetSmsDeliveryResponse } from "@auth/proto/identity";
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
          identity: { getSmsDelivery: async () => answer },
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
