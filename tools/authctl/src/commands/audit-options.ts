import { AuthError } from "@auth/errors";
import { DeliveryState } from "@auth/proto/audit";

const refused = (option: string, expected: string) =>
  new AuthError("request.validation.failed", { detail: `${option}: ${expected}` });

/** RFC 3339 with a time zone (`Z` or an offset), as `--from` and `--to` take it. */
const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time given on the command line; undefined when the option is not given. */
export function timeOption(option: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (!rfc3339.test(value) || Number.isNaN(time.getTime()))
    throw refused(option, "an RFC 3339 time with its zone, such as 2026-01-02T03:04:05Z");
  return time;
}

/** A whole number from `min` to `max` given on the command line; undefined when not given. */
export function wholeNumberOption(
  option: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max)
    throw refused(option, `a whole number from ${min} to ${max}`);
  return number;
}

const states: Record<string, DeliveryState> = {
  pending: DeliveryState.PENDING,
  succeeded: DeliveryState.SUCCEEDED,
  dead: DeliveryState.DEAD,
};

/** A delivery's state as `--state` names it; every state when not given. */
export function deliveryStateOption(value: string | undefined): DeliveryState {
  if (value === undefined) return DeliveryState.UNSPECIFIED;
  const state = states[value];
  if (state === undefined) throw refused("--state", "pending, succeeded or dead");
  return state;
}

/** The name `--state` gives a delivery's state. */
export function deliveryStateName(state: DeliveryState): string {
  return Object.keys(states).find((name) => states[name] === state) ?? "";
}

/** What `--enable` and `--disable` ask of a webhook: undefined leaves it as it is. */
export function enabledOption(options: { enable?: boolean; disable?: boolean }): boolean | undefined {
  if (options.enable && options.disable) throw refused("--enable, --disable", "one or the other");
  return options.enable ? true : options.disable ? false : undefined;
}

/** A repeatable option's values, in the order given (commander's argParser). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
