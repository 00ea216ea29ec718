import { AuthError } from "@auth/errors";
import { type User, UserStatus } from "@auth/proto/identity";
import { passwordLength } from "@auth/runtime/identity-shapes";
import type { Command } from "commander";
import type { Cli } from "../context.js";
import { statuses, userRecords } from "./user-table.js";

function status(name: string | undefined): UserStatus | undefined {
  if (name === undefined) return undefined;
  const value = statuses[name];
  if (value === undefined)
    throw new AuthError("request.validation.failed", {
      detail: `--status: one of ${Object.keys(statuses).join(", ")}`,
    });
  return value;
}

interface UserOptions {
  role?: string;
  profile?: string;
  loginName?: string;
  phone?: string;
  email?: string;
  password?: string;
  status?: string;
  secondFactor?: boolean;
  mustChangePassword?: boolean;
  question?: string;
  answer?: string;
}

function withUserOptions(command: Command): Command {
  return command
    .option("--login-name <name>", "a separate login name")
    .option("--phone <phone>", "primary phone (E.164, or national in the company's region)")
    .option("--email <email>", "primary e-mail")
    .option(
      "--password <password>",
      `a password (${passwordLength.min} to ${passwordLength.max} characters); AUTH_USER_PASSWORD keeps it out of the process list`,
    )
    .option("--status <status>", "active, restricted, closed or denied")
    .option(
      "--second-factor",
      "require a second factor at login (SMS, or a passkey or the authenticator app once enrolled)",
    )
    .option("--must-change-password", "require a new password at the next login")
    .option("--question <question>", "control question for recovery")
    .option("--answer <answer>", "answer to the control question");
}

export function userCommands(program: Command, cli: () => Cli): void {
  const user = program.command("user").description("users, their identifiers, password, status and role");

  withUserOptions(user.command("create <company>").description("create a user"))
    .requiredOption("--role <role>", "the user's role")
    .requiredOption("--profile <mnemocode>", "profile_mnemocode")
    .action(async (company: string, options: UserOptions) => {
      const { user: created } = await cli()
        .identity()
        .createUser({
          companyId: await cli().companyId(company),
          role: options.role ?? "",
          profileMnemocode: options.profile ?? "",
          loginName: options.loginName,
          phone: options.phone,
          email: options.email,
          password: options.password ?? process.env.AUTH_USER_PASSWORD,
          status: status(options.status) ?? UserStatus.ACTIVE,
          secondFactorRequired: options.secondFactor ?? false,
          passwordChangeRequired: options.mustChangePassword ?? false,
          controlQuestion: options.question,
          controlAnswer: options.answer,
        });
      cli().printRecord(created as User, userRecords);
    });

  withUserOptions(
    user
      .command("update <company> <user-id>")
      .description("change a user; an empty value removes an identifier"),
  )
    .option("--role <role>", "the user's role")
    .option("--profile <mnemocode>", "profile_mnemocode")
    .option("--no-second-factor", "stop requiring a second factor (a user with an app is still asked for it)")
    .option("--no-must-change-password", "stop requiring a new password")
    .action(async (company: string, userId: string, options: UserOptions) => {
      const { user: updated } = await cli()
        .identity()
        .updateUser({
          companyId: await cli().companyId(company),
          userId,
          role: options.role,
          profileMnemocode: options.profile,
          loginName: options.loginName,
          phone: options.phone,
          email: options.email,
          password: options.password ?? process.env.AUTH_USER_PASSWORD,
          status: status(options.status),
          secondFactorRequired: options.secondFactor,
          passwordChangeRequired: options.mustChangePassword,
          controlQuestion: options.question,
          controlAnswer: options.answer,
        });
      cli().printRecord(updated as User, userRecords);
    });

  user
    .command("import <company> <file>")
    .description(
      "create users from a JSON Lines or CSV file, with their passwords or the hashes they had (bcrypt, scrypt, PBKDF2-SHA256, argon2); a user whose external_id exists is skipped",
    )
    .option("--format <format>", "jsonl or csv (else the file's extension)")
    .option("--report <file>", "write the failed lines as JSON Lines")
    .action(async (company: string, file: string, options: { format?: string; report?: string }) => {
      // Loaded by this command alone: its parser and progress bar would slow every other one's start.
      const { fileBytes, formatOf, importFile, progressOf, summaryText, writeReport } = await import(
        "./user-import.js"
      );
      const format = formatOf(file, options.format);
      const companyId = await cli().companyId(company);
      const summary = await importFile(
        file,
        format,
        async (users) => (await cli().identity().importUsers({ companyId, users })).results,
        progressOf(fileBytes(file), process.stderr.isTTY === true),
      );
      if (options.report) writeReport(options.report, summary);
      cli().print(summary, summaryText(summary));
      if (summary.failed > 0) process.exitCode = 1;
    });

  user
    .command("get <company> <user-id>")
    .description("show a user")
    .action(async (company: string, userId: string) => {
      const { user: found } = await cli()
        .identity()
        .getUser({ companyId: await cli().companyId(company), userId });
      cli().printRecord(found as User, userRecords);
    });

  user
    .command("find <company> <login-id>")
    .description("find a user by login ID (e-mail, phone or login name)")
    .action(async (company: string, loginId: string) => {
      const found = await cli()
        .identity()
        .findUser({ companyId: await cli().companyId(company), loginId });
      if (!found.user)
        throw new AuthError("resource.notfound", {
          detail: `no user with login ID ${found.normalizedLoginId}`,
        });
      cli().printRecord(found.user, userRecords);
    });

  user
    .command("list <company>")
    .description("list a company's users")
    .action(async (company: string) => {
      const companyId = await cli().companyId(company);
      const users: User[] = [];
      for await (const page of cli().usersOf(companyId)) users.push(...page);
      cli().printList(users, userRecords);
    });

  const backup = program.command("backupcodes").description("a user's backup codes");
  backup
    .command("generate <company> <user-id>")
    .description("replace the user's backup codes with 10 new ones; they are shown once")
    .action(async (company: string, userId: string) => {
      const { backupCodes } = await cli()
        .identity()
        .generateBackupCodes({ companyId: await cli().companyId(company), userId });
      cli().print({ backupCodes }, backupCodes.join("\n"));
    });
  program
    .command("totp")
    .description("a user's authenticator app (TOTP)")
    .command("remove <company> <user-id>")
    .description("remove the user's authenticator app (a lost phone); the user's sessions end")
    .action(async (company: string, userId: string) => {
      const removed = await cli()
        .identity()
        .removeTotp({ companyId: await cli().companyId(company), userId });
      cli().print(removed, removed.removed ? "removed" : "the user has no authenticator app");
    });
  backup
    .command("count <company> <user-id>")
    .description("how many unused backup codes the user has")
    .action(async (company: string, userId: string) => {
      const counted = await cli()
        .identity()
        .countBackupCodes({ companyId: await cli().companyId(company), userId });
      cli().print(counted, String(counted.remaining));
    });
}
