import { type MailMessage, MemoryOutbox } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import {
  createServiceClient,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { MemoryKeyValueStore, systemClock } from "@auth/kv";
import {
  type ApplyContactChangeRequest,
  ContactKind,
  type GetMailDeliveryRequest,
  type GetMailDeliveryResponse,
} from "@auth/proto/identity";
import { LinkPurpose, RecoveryServiceService } from "@auth/proto/recovery";
import { createLogger } from "@auth/runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recoveryService } from "./server.js";
import { RecoveryStore } from "./store/recovery-store.js";

/**
 * The identity service as the recovery service asks it for a link's delivery, which spends one of
 * the user's recovery messages there: every request is kept, and it refuses once `refuse` says so.
 */
const identity = {
  asked: [] as GetMailDeliveryRequest[],
  refuse: false,
  answer: {
    email: "ann@example.com",
    companyName: "Acme",
    linkBase: "https://app.example/recover",
    brand: { logoUrl: "https://app.example/logo.png", color: "#0b6e4f" },
    defaultLanguage: "en",
    texts: [],
  } as GetMailDeliveryResponse,
  async getMailDelivery(request: GetMailDeliveryRequest): Promise<GetMailDeliveryResponse> {
    identity.asked.push(request);
    if (identity.refuse)
      throw new AuthError("request.ratelimit.exceeded", { retryAfterSeconds: 600, detail: "spent" });
    return identity.answer;
  },
  /** The changes of e-mail identity was asked to apply; it applies each while `pending`. */
  applied: [] as ApplyContactChangeRequest[],
  pending: true,
  async applyContactChange(request: ApplyContactChangeRequest) {
    identity.applied.push(request);
    return { applied: identity.pending };
  },
};

const outbox = new MemoryOutbox<MailMessage>();
let server: RunningGrpcServer;
let recovery: ServiceClient<typeof RecoveryServiceService>;

beforeAll(async () => {
  const logger = createLogger("recovery", "silent");
  server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    transport: { kind: "plaintext" },
    logger,
    services: [
      recoveryService(
        new RecoveryStore(new MemoryKeyValueStore(systemClock), systemClock),
        { identity, fallback: outbox, timeoutMs: 5_000 },
        logger,
      ),
    ],
  });
  recovery = createServiceClient(RecoveryServiceService, `127.0.0.1:${server.port}`, {
    deadlineMs: 5_000,
    transport: { kind: "plaintext" },
    server: "recovery",
  });
});

afterAll(async () => {
  recovery.close();
  await server.stop(100);
});

beforeEach(() => {
  identity.asked = [];
  identity.applied = [];
  identity.pending = true;
  identity.refuse = false;
  outbox.messages.length = 0;
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );
const send = (language = "") =>
  recovery.sendRecoveryLink({ companyId: "c1", userId: "u1", loginId: "ann", language });

describe("SendRecoveryLink", () => {
  it("asks identity once for the link's delivery, whose answer spends the user's recovery message, and sends the link", async () => {
    expect(await codeOf(send())).toBe("ok");
    expect(identity.asked).toEqual([{ companyId: "c1", userId: "u1" }]);
    expect(outbox.messages).toHaveLength(1);
    expect(outbox.messages[0]?.text).toContain("https://app.example/recover?token=");
  });

  it("sends the link in the HTML part too, in the brand identity answers with", async () => {
    await send();
    const html = outbox.messages[0]?.html ?? "";
    expect(html).toMatch(/href="https:\/\/app\.example\/recover\?token=/);
    expect(html).toContain('<img src="https://app.example/logo.png" alt="Acme"');
    expect(html).toContain("background:#0b6e4f");
  });

  it("words the e-mail in the request's language, else the company's default language identity answers", async () => {
    identity.answer = { ...identity.answer, defaultLanguage: "fr", texts: [] };
    try {
      await send("de-AT");
      await send("");
      expect(outbox.messages.map((message) => message.subject)).toEqual([
        "Zugang zu Ihrem Konto bei Acme wiederherstellen",
        "Récupérer l’accès à votre compte Acme",
      ]);
    } finally {
      identity.answer = { ...identity.answer, defaultLanguage: "en" };
    }
  });

  it("issues and sends nothing when identity refuses the delivery: the user's recovery messages are spent", async () => {
    identity.refuse = true;
    expect(await codeOf(send())).toBe("request.ratelimit.exceeded");
    expect(identity.asked).toHaveLength(1);
    expect(outbox.messages).toEqual([]);
  });
});

describe("an e-mail change's link (docs/api-contract.md, Changing the phone or the e-mail)", () => {
  const sendChange = () =>
    recovery.sendRecoveryLink({
      companyId: "c1",
      userId: "u1",
      loginId: "",
      language: "en",
      purpose: LinkPurpose.EMAIL_CHANGE,
    });
  const tokenIn = (text: string, query: string) =>
    new URL(/https?:\/\/\S+/.exec(text)?.[0] ?? "https://none/").searchParams.get(query) ?? "";
  const redeem = (linkToken: string, purpose?: LinkPurpose) =>
    recovery.redeemRecoveryLink({ companyId: "c1", linkToken, purpose });

  it("goes to the address identity answers for the purpose, as email_token, worded to confirm it", async () => {
    await sendChange();
    expect(identity.asked).toEqual([{ companyId: "c1", userId: "u1", purpose: LinkPurpose.EMAIL_CHANGE }]);
    const [message] = outbox.messages;
    expect(message?.subject).toBe("Confirm your new e-mail address for Acme");
    expect(message?.text).toContain("within 15 minutes");
    expect(tokenIn(message?.text ?? "", "email_token")).not.toBe("");
    expect(tokenIn(message?.text ?? "", "token")).toBe("");
  });

  it("is redeemed once, as an e-mail change only, and has identity apply the address it went to", async () => {
    await sendChange();
    const token = tokenIn(outbox.messages[0]?.text ?? "", "email_token");
    expect(await codeOf(redeem(token))).toBe("auth.token.invalid");
    expect(await codeOf(redeem(token, LinkPurpose.EMAIL_CHANGE))).toBe("ok");
    expect(identity.applied).toEqual([
      { companyId: "c1", userId: "u1", kind: ContactKind.EMAIL, address: "ann@example.com" },
    ]);
    expect(await codeOf(redeem(token, LinkPurpose.EMAIL_CHANGE))).toBe("auth.token.invalid");
  });

  it("a recovery link is never an e-mail change's, and one identity no longer holds pending is invalid", async () => {
    await send();
    const recoveryToken = tokenIn(outbox.messages[0]?.text ?? "", "token");
    expect(await codeOf(redeem(recoveryToken, LinkPurpose.EMAIL_CHANGE))).toBe("auth.token.invalid");
    identity.pending = false;
    await sendChange();
    const token = tokenIn(outbox.messages[1]?.text ?? "", "email_token");
    expect(await codeOf(redeem(token, LinkPurpose.EMAIL_CHANGE))).toBe("auth.token.invalid");
  });

  it("ends the user's recovery links once applied", async () => {
    await send();
    const recoveryToken = tokenIn(outbox.messages[0]?.text ?? "", "token");
    await sendChange();
    expect(
      await codeOf(redeem(tokenIn(outbox.messages[1]?.text ?? "", "email_token"), LinkPurpose.EMAIL_CHANGE)),
    ).toBe("ok");
    expect(await codeOf(redeem(recoveryToken))).toBe("auth.token.invalid");
  });
});
