/**
 * Node.js flags the API processes run with, however they are started (`npm start`'s supervisor, the Docker image,
 * the benchmarks). A list request allocates tens of kilobytes that die with it; V8's default young generation (two
 * 16 MB semi-spaces on 64-bit) is scavenged every few hundred requests, and each scavenge copies what the requests in
 * flight still hold. 64 MB semi-spaces scavenge a quarter as often: a median of 5 % less CPU per list request (from 14 %
 * less to none in six A/B runs of two API processes on bench:api's query, issue 15's note), for up to 96 MB more
 * memory per process. The bare server of bench:api gains nothing from it (it allocates little). An operator's own
 * NODE_OPTIONS naming the flag wins (apiNodeFlags).
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** API_NODE_FLAGS, less those NODE_OPTIONS already sets (a flag on the command line would override the operator's). */
export function apiNodeFlags(nodeOptions: string | undefined): string[] {
  const set = new Set((nodeOptions ?? '').split(/\s+/).map((option) => option.split('=')[0].replace(/_/g, '-')));
  return API_NODE_FLAGS.filter((flag) => !set.has(flag.split('=')[0]));
}
