// What several rules ask of a change event: its direction, and where a deprecation stands against the
// sunset policy (the `x-sunset` date and the minimum deprecation period, `--deprecation-days`).
import { readContractDate } from "@workapi/spec";

/**
 * @typedef {import("../index.js").Policy} Policy
 * @typedef {{ deprecated?: boolean, sunset?: unknown, [field: string]: unknown }} Dated
 *   a change event, or the side of one, that may be deprecated with a sunset
 */

/** @param {{ direction?: string }} e */
export const request = (e) => e.direction === "request";
/** @param {{ direction?: string }} e */
export const response = (e) => e.direction === "response";

const DAY = 24 * 60 * 60 * 1000;

/**
 * An `x-sunset` value as the policy reads it: undefined when absent (or empty), its date where @workapi/spec's
 * readContractDate reads one (the server's Sunset header and the docs' badge read it the same), and `invalid`
 * for a value set that is no date, which the policy reports rather than ignores.
 * @param {unknown} value @returns {Date | "invalid" | undefined}
 */
export function readSunset(value) {
  if (value === undefined || value === null || value === "") return undefined;
  return readContractDate(value) ?? "invalid";
}

/**
 * Where a removal stands: `not-deprecated`; `invalid` sunset; `before-sunset` (the date is still to come);
 * `no-sunset` (deprecated without a date: allowed only when the policy asks for no minimum period);
 * `after-sunset` (deprecated and the date has passed).
 * @param {Dated} e @param {Policy} policy
 */
export function removal(e, policy) {
  if (!e.deprecated) return "not-deprecated";
  const date = readSunset(e.sunset);
  if (date === "invalid") return "invalid";
  if (date === undefined) return policy.deprecationDays > 0 ? "no-sunset" : "after-sunset";
  return date.getTime() > policy.now.getTime() ? "before-sunset" : "after-sunset";
}

/**
 * Where a new deprecation stands: `ok`; `missing` (no sunset while the policy asks for a period);
 * `invalid`; `too-soon` (the sunset is closer than the minimum period).
 * @param {Dated} e @param {Policy} policy
 */
export function deprecation(e, policy) {
  const date = readSunset(e.sunset);
  if (date === "invalid") return "invalid";
  if (date === undefined) return policy.deprecationDays > 0 ? "missing" : "ok";
  return date.getTime() < policy.now.getTime() + policy.deprecationDays * DAY ? "too-soon" : "ok";
}

/** Stability levels from least to most stable (`x-stability-level`); absent means stable. */
export const STABILITY = ["draft", "alpha", "beta", "stable"];
export const stabilityRank = (/** @type {unknown} */ value) =>
  value === undefined ? STABILITY.length - 1 : STABILITY.indexOf(/** @type {string} */ (value));
/**
 * True for an `x-stability-level` that is set but is not a level. Such a value is an error on whichever side of
 * a change it stands: in the base, it leaves unknown what the operation or property promised, so whether the
 * change keeps that promise cannot be told (as the peer reports it).
 */
export const unreadableLevel = (/** @type {unknown} */ value) =>
  value !== undefined && stabilityRank(value) < 0;
/** True for an `x-sunset` that is set but is not a date. */
export const unreadableSunset = (/** @type {unknown} */ value) => readSunset(value) === "invalid";

/** A value as it reads in a message. */
export const show = (/** @type {unknown} */ value) =>
  value === undefined ? "(none)" : typeof value === "string" ? value : JSON.stringify(value);
export const list = (/** @type {unknown[]} */ values) => values.map((v) => JSON.stringify(v)).join(", ");
