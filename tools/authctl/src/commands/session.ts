import { AuthorizedSession, TokenStatus } from "@auth/proto/introspection";
import type { Command } from "commander";
import type { Cli } from "../context.js";
import { sessionRecords } from "./session-table.js";

export function sessionCommands(program: Command, cli: () => Cli): void {
  const session = program.command("session").description("session tokens: introspect, revoke, list");

  session
    .command("introspect <token>")
    .description(
      "what a token is, as other products see it: active (authorized, with its session), not authorized, expired or invalid; put -- before a token that starts with -",
    )
    .action(async (token: string) => {
      const result = await cli().introspection().introspectToken({ sessionToken: token });
      const json = {
        status: result.status,
        session: result.session && AuthorizedSession.toJSON(result.session),
      };
      cli().print(
        json,
        result.status === TokenStatus.ACTIVE && result.session
          ? `${result.session.sessionId}\tuser ${result.session.userId}\texpires ${result.session.expiresAt?.toISOString()}`
          : result.status,
      );
    });

  session
    .command("revoke <token>")
    .description("invalidate one token; put -- before a token that starts with -")
    .action(async (token: string) => {
      const result = await cli().session().revokeSession({ sessionToken: token });
      cli().print(result, result.revoked ? "revoked" : "no such token");
    });

  session
    .command("revoke-user <company> <user-id>")
    .description("invalidate every session of a user")
    .action(async (company: string, userId: string) => {
      const result = await cli()
        .session()
        .revokeUserSessions({ companyId: await cli().companyId(company), userId });
      cli().print(result, `revoked ${result.revoked} sessions`);
    });

  session
    .command("revoke-company <company>")
    .description(
      "invalidate every session of every user of the company (ASVS 5.0 7.4.5); suspend the company first so that no login starts meanwhile",
    )
    .action(async (company: string) => {
      const companyId = await cli().companyId(company);
      let users = 0;
      let revoked = 0;
      for await (const page of cli().usersOf(companyId)) {
        const results = await Promise.all(
          page.map((user) => cli().session().revokeUserSessions({ companyId, userId: user.id })),
        );
        users += page.length;
        revoked += results.reduce((sum, result) => sum + result.revoked, 0);
      }
      cli().print({ users, revoked }, `revoked ${revoked} sessions of ${users} users`);
    });

  session
    .command("list <company> <user-id>")
    .description("list a user's sessions (never the tokens)")
    .action(async (company: string, userId: string) => {
      const { sessions } = await cli()
        .session()
        .listUserSessions({ companyId: await cli().companyId(company), userId });
      cli().printList(sessions, sessionRecords);
    });
}
