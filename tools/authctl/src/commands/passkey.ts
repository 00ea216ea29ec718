import type { Command } from "commander";
import type { Cli } from "../context.js";
import { passkeyRecords } from "./passkey-table.js";

interface UserOfCompany {
  company: string;
  user: string;
}

/** A user's passkeys (docs/decisions.md, "Passkeys"): an operator lists them and removes a lost one. */
export function passkeyCommands(program: Command, cli: () => Cli): void {
  const passkeys = program.command("passkeys").description("a user's passkeys (WebAuthn)");

  passkeys
    .command("list")
    .description("list the user's passkeys, oldest first")
    .requiredOption("--company <code>", "the company's code")
    .requiredOption("--user <user-id>", "the user's id")
    .action(async (options: UserOfCompany) => {
      const { passkeys: listed } = await cli()
        .identity()
        .listPasskeys({ companyId: await cli().companyId(options.company), userId: options.user });
      cli().printList(listed, passkeyRecords);
    });

  passkeys
    .command("remove")
    .description("remove one of the user's passkeys (a lost or cloned key); the user's sessions end")
    .requiredOption("--company <code>", "the company's code")
    .requiredOption("--user <user-id>", "the user's id")
    .requiredOption("--passkey <id>", "the passkey's id (passkeys list)")
    .action(async (options: UserOfCompany & { passkey: string }) => {
      const removed = await cli()
        .identity()
        .removePasskey({
          companyId: await cli().companyId(options.company),
          userId: options.user,
          passkeyId: options.passkey,
        });
      cli().print(removed, removed.removed ? "removed" : "the user has no passkey of that id");
    });
}
