import { createHash, createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeProvider,
  failureOf,
  type ProviderRequest,
  startFakeProvider,
} from "./fake-provider.testing.js";
import { SnsSmsProvider } from "./sns-sms-provider.js";

const accessKeyId = "AKIAIOSFODNN7EXAMPLE";
const secretAccessKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const region = "eu-west-1";
/** A number SNS refuses to publish to (InvalidParameter). */
const invalidNumber = "+15550000003";

const hex = (data: string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/**
 * Whether the request carries a valid AWS Signature Version 4 of this key for SNS in this region,
 * computed here as AWS documents it: the canonical request of the signed headers and the body's
 * hash, the string to sign, the key derived from the secret, date, region and service.
 */
function signedBySecret(request: ProviderRequest): boolean {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/sns\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      request.headers.authorization ?? "",
    );
  if (!match) return false;
  const [, keyId, date = "", signedRegion, signedHeaders = "", signature] = match;
  const amzDate = request.headers["x-amz-date"] ?? "";
  const canonicalRequest = [
    request.method,
    request.path,
    "",
    ...signedHeaders.split(";").map((name) => `${name}:${request.headers[name]?.trim()}`),
    "",
    signedHeaders,
    hex(request.body),
  ].join("\n");
  const scope = `${date}/${signedRegion}/sns/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, hex(canonicalRequest)].join("\n");
  const key = ["sns", "aws4_request"].reduce(
    (derived, part) => hmac(derived, part),
    hmac(hmac(`AWS4${secretAccessKey}`, date), signedRegion ?? ""),
  );
  return (
    keyId === accessKeyId &&
    signedRegion === region &&
    amzDate.startsWith(date) &&
    createHmac("sha256", key).update(stringToSign).digest("hex") === signature
  );
}

const xml = (status: number, body: string) => ({ status, headers: { "content-type": "text/xml" }, body });
const error = (status: number, code: string, message: string) =>
  xml(
    status,
    `<ErrorResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>9b1f6a5e-0000-0000-0000-000000000000</RequestId></ErrorResponse>`,
  );

/** The message attributes of a Query API Publish, by name. */
function attributesOf(form: URLSearchParams): Record<string, string | null> {
  const attributes: Record<string, string | null> = {};
  for (let entry = 1; form.has(`MessageAttributes.entry.${entry}.Name`); entry += 1) {
    const name = form.get(`MessageAttributes.entry.${entry}.Name`) ?? "";
    attributes[name] = form.get(`MessageAttributes.entry.${entry}.Value.StringValue`);
  }
  return attributes;
}

interface Published {
  phoneNumber: string | null;
  message: string | null;
  attributes: Record<string, string | null>;
}

let fake: FakeProvider | undefined;
afterEach(() => fake?.close());

/**
 * Amazon SNS's Query API as far as a send uses it: POST a form with Action=Publish to /, signed
 * with SigV4. The first `throttled` requests are answered 429 Throttled (SNS sends no Retry-After);
 * with `hold`, none is answered.
 */
async function snsApi(options: { throttled?: number; hold?: boolean } = {}) {
  const published: Published[] = [];
  fake = await startFakeProvider((request, index) => {
    if (options.hold) return "hold";
    if (!signedBySecret(request)) {
      return error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match");
    }
    const form = new URLSearchParams(request.body);
    if (
      request.method !== "POST" ||
      form.get("Action") !== "Publish" ||
      form.get("Version") !== "2010-03-31"
    ) {
      return error(400, "InvalidAction", "The action or operation requested is invalid");
    }
    if (index < (options.throttled ?? 0)) return error(429, "Throttled", "Rate exceeded");
    if (form.get("PhoneNumber") === invalidNumber) {
      return error(400, "InvalidParameter", "Invalid parameter: PhoneNumber Reason: not valid to publish to");
    }
    published.push({
      phoneNumber: form.get("PhoneNumber"),
      message: form.get("Message"),
      attributes: attributesOf(form),
    });
    return xml(
      200,
      `<PublishResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>567910cd-659e-55d4-8ccb-5aaf14679dc0</MessageId></PublishResult><ResponseMetadata><RequestId>d74b8436-ae13-5ab4-a9ff-ce54dfea72a0</RequestId></ResponseMetadata></PublishResponse>`,
    );
  });
  return { url: fake.url, received: fake.received, published };
}

const message = { companyId: "c1", to: "+15551234567", text: "Your code is 123456" };
const sns = (url: string, overrides: { secret?: string; sender?: string; timeoutMs?: number } = {}) =>
  new SnsSmsProvider(
    {
      url,
      account: accessKeyId,
      token: overrides.secret ?? secretAccessKey,
      sender: overrides.sender ?? "",
      region,
    },
    { timeoutMs: overrides.timeoutMs ?? 10_000, retries: 2 },
  );

describe("Amazon SNS SMS provider (docs/decisions.md, SMS providers)", () => {
  it("publishes one transactional message to the user's number, signed with the access key (SigV4)", async () => {
    const api = await snsApi();
    await sns(api.url).send(message);
    expect(api.received).toHaveLength(1);
    expect(api.published).toEqual([
      {
        phoneNumber: message.to,
        message: message.text,
        attributes: { "AWS.SNS.SMS.SMSType": "Transactional" },
      },
    ]);
  });

  it("names the company's sender ID when it has one", async () => {
    const api = await snsApi();
    await sns(api.url, { sender: "Acme" }).send(message);
    expect(api.published[0]?.attributes).toEqual({
      "AWS.SNS.SMS.SMSType": "Transactional",
      "AWS.SNS.SMS.SenderID": "Acme",
    });
  });

  it("takes a refused number (InvalidParameter) as final: one request, service.unavailable naming the error", async () => {
    const api = await snsApi();
    const failure = await failureOf(sns(api.url).send({ ...message, to: invalidNumber }));
    expect(failure.code).toBe("service.unavailable");
    expect(failure.message).toBe("SMS not sent: SNS answered 400 (InvalidParameterException)");
    expect(api.received).toHaveLength(1);
  });

  it("does not repeat a send that timed out, which SNS may have taken (the SDK's own retries off): one request, service.unavailable", async () => {
    const api = await snsApi({ hold: true });
    const failure = await failureOf(sns(api.url, { timeoutMs: 1_000 }).send(message));
    expect(failure.code).toBe("service.unavailable");
    expect(failure.message).toBe("SMS not sent: ETIMEDOUT");
    expect(api.received).toHaveLength(1);
  });

  it("tries a Throttled answer (429) again: two requests, one message published", async () => {
    const api = await snsApi({ throttled: 1 });
    await sns(api.url).send(message);
    expect(api.received).toHaveLength(2);
    expect(api.published).toHaveLength(1);
  });

  it("takes bad credentials (SignatureDoesNotMatch, 403) as final: one request", async () => {
    const api = await snsApi();
    const failure = await failureOf(sns(api.url, { secret: "wrong-secret" }).send(message));
    expect(failure.message).toBe("SMS not sent: SNS answered 403 (SignatureDoesNotMatch)");
    expect(api.received).toHaveLength(1);
    expect(api.published).toEqual([]);
  });
});
