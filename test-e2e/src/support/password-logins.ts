import { createServiceClient, type ServiceClient } from "@auth/grpc-kit/client";
import { TokenIntrospectionServiceService, type TokenStatus } from "@auth/proto/introspection";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { call } from "./api.js";
import { sharedTransportOf, type TestCompany, type TestUser } from "./fixtures.js";

/**
 * A token's status as a consumer's introspection tells it, through a client the test file opens
 * before its tests and closes after them.
 */
export function useTokenStatus(): (token: string) => Promise<TokenStatus> {
  let introspection: ServiceClient<typeof TokenIntrospectionServiceService> | undefined;
  beforeAll(() => {
    introspection = createServiceClient(TokenIntrospectionServiceService, inject("sessionAddress"), {
      deadlineMs: 20_000,
      transport: sharedTransportOf("consumer/e2e"),
      server: "session",
    });
  });
  afterAll(() => introspection?.close());
  return async (token) => {
    if (!introspection) throw new Error("useTokenStatus() must be called in the test file's top level");
    return (await introspection.introspectToken({ sessionToken: token })).status;
  };
}

/**
 * Logins with a password, each with the dev captcha: an old password, once changed, counts as a
 * failure like any wrong one, and the captcha that follows must not stop the tests.
 */
export function passwordLogins(company: () => TestCompany) {
  const checkcredentials = (user: TestUser, password: string) =>
    call(company().code, "checkcredentials", {
      apiKey: company().apiKey,
      body: { login_id: user.loginName, password, captcha_response: "dev-captcha-pass" },
    });
  /** A login expected to authorize: its token. */
  const logIn = async (user: TestUser, password = user.password ?? "") => {
    const answer = await checkcredentials(user, password);
    expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("authorized");
    return String(answer.body.session_token);
  };
  return { checkcredentials, logIn };
}
