// The rules that read what a property says about itself (deprecated and its x-sunset, x-stability-level),
// listed in the order of the README's table; src/rules/index.js takes them in at the end of its list.
import propertyDeprecated from "./property-deprecated.js";
import propertyDeprecatedWithoutSunset from "./property-deprecated-without-sunset.js";
import propertyReactivated from "./property-reactivated.js";
import propertyStabilityDecreased from "./property-stability-decreased.js";
import propertyStabilityIncreased from "./property-stability-increased.js";
import propertyStabilityInvalid from "./property-stability-invalid.js";

export const PROPERTY_MARK_RULES = [
  propertyDeprecated,
  propertyDeprecatedWithoutSunset,
  propertyReactivated,
  propertyStabilityDecreased,
  propertyStabilityIncreased,
  propertyStabilityInvalid,
];
