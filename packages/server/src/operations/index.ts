// Every operation's handler, keyed by the interface name; both methods of a read share one. Partial: an operation
// the contract marks x-unreleased may have none yet (it answers its examples, ../http/example-only.ts); that every
// released operation has one is test/handlers.test.ts's check, as the types do not know what is released.

import type { Handlers } from "../core/handlers.js";
import { accounts } from "./accounts.js";
import { articles } from "./articles.js";
import { artifacts } from "./artifacts.js";
import { authTokens } from "./auth-tokens.js";
import { codeChanges } from "./code-changes.js";
import { conversations } from "./conversations.js";
import { customObjects } from "./custom-objects.js";
import { devUsers } from "./dev-users.js";
import { observability } from "./observability.js";
import { orgScheduleFragments } from "./org-schedule-fragments.js";
import { orgSchedules } from "./org-schedules.js";
import { parts } from "./parts.js";
import { revOrgs } from "./rev-orgs.js";
import { sandboxes } from "./sandboxes.js";
import { slas } from "./slas.js";
import { stageDiagrams } from "./stage-diagrams.js";
import { stages } from "./stages.js";
import { surveys } from "./surveys.js";
import { tags } from "./tags.js";
import { timelineEntries } from "./timeline-entries.js";
import { vistas } from "./vistas.js";
import { works } from "./works.js";

export const handlers: Partial<Handlers> = {
  ...accounts,
  ...articles,
  ...artifacts,
  ...authTokens,
  ...codeChanges,
  ...conversations,
  ...customObjects,
  ...devUsers,
  ...observability,
  ...orgScheduleFragments,
  ...orgSchedules,
  ...parts,
  ...revOrgs,
  ...sandboxes,
  ...slas,
  ...stageDiagrams,
  ...stages,
  ...surveys,
  ...tags,
  ...timelineEntries,
  ...vistas,
  ...works,
};
