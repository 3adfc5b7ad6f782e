// The conformance suite against the scripted server (test/support/conformance.ts says what it checks).
import { describeConformance } from "./support/conformance.js";
import { scriptedTarget } from "./support/target.js";

describeConformance("the scripted server", scriptedTarget);
