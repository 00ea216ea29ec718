import type { SmsSettings } from "@auth/proto/otp";
import { failureOfAnswer, failureOfNetwork, type HttpDefaults, sendWithRetries } from "./sms-retries.js";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

/**
 * What Amazon SNS needs of the company's settings (proto SmsProvider: account = access key ID,
 * token = secret access key, region; sender = an optional sender ID).
 */
export type SnsAccount = Pick<SmsSettings, "url" | "account" | "token" | "sender" | "region">;

/** Loaded with the first SNS send, as nodemailer is (smtp.ts). */
const loadSns = () => import("@aws-sdk/client-sns");

/**
 * Publishes to a phone number through Amazon SNS (the Query API's Publish, signed with SigV4). The
 * AWS SDK retries by itself, so it is held to one attempt and sendWithRetries decides. Its errors
 * are SNSServiceExceptions with the HTTP status in `$metadata` and the answer in `$response`
 * (InvalidParameter 400, InvalidClientTokenId and SignatureDoesNotMatch 403, Throttled 429), and
 * for no answer the socket's error (ECONNREFUSED) or a TimeoutError (ETIMEDOUT). SNS takes no
 * idempotency key for a message to a phone number.
 */
export class SnsSmsProvider implements SmsSender {
  constructor(
    private readonly account: SnsAccount,
    private readonly limits: HttpDefaults,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const { url, account, token, sender, region } = this.account;
    const { timeoutMs } = this.limits;
    const { SNSClient, PublishCommand, SNSServiceException } = await loadSns();
    const client = new SNSClient({
      region,
      ...(url ? { endpoint: url } : {}),
      credentials: { accessKeyId: account, secretAccessKey: token },
      maxAttempts: 1,
      // Without throwOnRequestTimeout the SDK only warns of a request past its timeout, and waits on.
      requestHandler: {
        connectionTimeout: timeoutMs,
        requestTimeout: timeoutMs,
        throwOnRequestTimeout: true,
      },
    });
    const attributes = {
      // A one-time code: SNS's higher-priority route, not the marketing one.
      "AWS.SNS.SMS.SMSType": { DataType: "String", StringValue: "Transactional" },
      ...(sender ? { "AWS.SNS.SMS.SenderID": { DataType: "String", StringValue: sender } } : {}),
    };
    try {
      await sendWithRetries(
        async () => {
          await client.send(
            new PublishCommand({
              PhoneNumber: message.to,
              Message: message.text,
              MessageAttributes: attributes,
            }),
          );
        },
        (error) =>
          error instanceof SNSServiceException && error.$metadata.httpStatusCode
            ? failureOfAnswer(
                error.$metadata.httpStatusCode,
                error.$response?.headers["retry-after"],
                `SNS answered ${error.$metadata.httpStatusCode} (${error.name})`,
              )
            : failureOfNetwork(error),
        { ...this.limits, idempotent: false },
      );
    } finally {
      client.destroy();
    }
  }
}
