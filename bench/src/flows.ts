import type { BenchUser } from "./fixtures.js";
import { httpLoad, type LoadResult } from "./http-load.js";
import { openLoopLoad } from "./open-loop.js";

/** A gateway that serves the flows of spec 4 for one company: the suite's, or the skeleton's. */
export interface FlowTarget {
  /** The gateway's origin, `http://127.0.0.1:<port>`. */
  url: string;
  companyCode: string;
  apiKey: string;
  users: BenchUser[];
}

/**
 * How hard a load pushes: `connections` for `durationSeconds`, as fast as answers come (closed
 * loop), or, with `arrivalRate`, that many flows started a second at random moments whatever the
 * answers (an open loop: `connections` is then not used).
 */
export interface LoadShape {
  connections: number;
  durationSeconds: number;
  arrivalRate?: number;
}

/** The flows the benchmark compares between the product and what it is compared with. */
export const comparedFlows = ["identify", "password login", "checkcredentials"] as const;
export type ComparedFlow = (typeof comparedFlows)[number];

/** HTTP requests a flow takes: a password login is login, then checkpassword. */
export const requestsPerFlow: Record<ComparedFlow, number> = {
  identify: 1,
  "password login": 2,
  checkcredentials: 1,
};

/** What one autocannon connection carries from login to checkpassword. */
interface FlowState {
  user?: BenchUser;
  token?: string;
}

/** The loads of each compared flow against one gateway, each user in turn. */
export function flowLoads(
  target: FlowTarget,
): Record<ComparedFlow, (shape: LoadShape) => Promise<LoadResult>> {
  let next = 0;
  const nextUser = () => target.users[next++ % target.users.length] as BenchUser;
  const path = (operation: string) => `/${target.companyCode}/v2/auth/${operation}`;
  const headers = { "content-type": "application/json", "x-api-key": target.apiKey };
  const load = (
    shape: LoadShape,
    operation: string,
    requests: NonNullable<Parameters<typeof httpLoad>[0]["requests"]>,
  ) => {
    const url = `${target.url}${path(operation)}`;
    return shape.arrivalRate === undefined
      ? httpLoad({ url, connections: shape.connections, duration: shape.durationSeconds, requests })
      : openLoopLoad({
          url,
          arrivalRate: shape.arrivalRate,
          durationSeconds: shape.durationSeconds,
          requests,
        });
  };
  return {
    identify: (shape) =>
      load(shape, "login", [
        {
          method: "POST",
          headers,
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ login_id: nextUser().loginName }),
          }),
        },
      ]),
    // Whole password logins (login, then checkpassword) on every connection.
    "password login": (shape) =>
      load(shape, "login", [
        {
          method: "POST",
          headers,
          setupRequest: (request, context) => {
            const user = nextUser();
            (context as FlowState).user = user;
            return { ...request, body: JSON.stringify({ login_id: user.loginName }) };
          },
          onResponse: (_status, body, context) => {
            (context as FlowState).token = (JSON.parse(body) as { session_token?: string }).session_token;
          },
        },
        {
          method: "POST",
          path: path("checkpassword"),
          setupRequest: (request, context) => ({
            ...request,
            headers: { ...headers, authorization: `Bearer ${(context as FlowState).token}` },
            body: JSON.stringify({ password: (context as FlowState).user?.password }),
          }),
        },
      ]),
    checkcredentials: (shape) =>
      load(shape, "checkcredentials", [
        {
          method: "POST",
          headers,
          setupRequest: (request) => {
            const user = nextUser();
            return {
              ...request,
              body: JSON.stringify({ login_id: user.loginName, password: user.password }),
            };
          },
        },
      ]),
  };
}
