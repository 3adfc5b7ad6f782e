// Every rule, one module each (id, level, one-line doc, the change event it reads, and a given before/after
// pair that must trigger it). The rule table in the package README is generated from this list.

import allOfAnnotationChanged from "./all-of-annotation-changed.js";
import callbackAdded from "./callback-added.js";
import callbackRemoved from "./callback-removed.js";
import componentSchemaRemoved from "./component-schema-removed.js";
import defaultDocumentedOrDropped from "./default-documented-or-dropped.js";
import discriminatorChanged from "./discriminator-changed.js";
import discriminatorPropertyNameChanged from "./discriminator-property-name-changed.js";
import operationAdded from "./operation-added.js";
import operationDeprecated from "./operation-deprecated.js";
import operationDeprecatedWithoutSunset from "./operation-deprecated-without-sunset.js";
import operationIdChanged from "./operation-id-changed.js";
import operationReactivated from "./operation-reactivated.js";
import operationRemoved from "./operation-removed.js";
import operationRemovedAfterSunset from "./operation-removed-after-sunset.js";
import operationStabilityDecreased from "./operation-stability-decreased.js";
import operationStabilityIncreased from "./operation-stability-increased.js";
import operationStabilityInvalid from "./operation-stability-invalid.js";
import operationSunsetBroughtForward from "./operation-sunset-brought-forward.js";
import operationSunsetChanged from "./operation-sunset-changed.js";
import operationSunsetInvalid from "./operation-sunset-invalid.js";
import operationSunsetRemoved from "./operation-sunset-removed.js";
import operationSunsetTooSoon from "./operation-sunset-too-soon.js";
import operationTagAdded from "./operation-tag-added.js";
import operationTagRemoved from "./operation-tag-removed.js";
import paginationAdded from "./pagination-added.js";
import paginationChanged from "./pagination-changed.js";
import paginationRemoved from "./pagination-removed.js";
import { PROPERTY_MARK_RULES } from "./property-marks.js";
import propertyWriteOnlyChanged from "./property-write-only-changed.js";
import requestAdditionalPropertiesAdded from "./request-additional-properties-added.js";
import requestAdditionalPropertiesRemoved from "./request-additional-properties-removed.js";
import requestAllOfAdded from "./request-all-of-added.js";
import requestAllOfRemoved from "./request-all-of-removed.js";
import requestBecameEnum from "./request-became-enum.js";
import requestBecameNotNullable from "./request-became-not-nullable.js";
import requestBecameNullable from "./request-became-nullable.js";
import requestBodyAddedOptional from "./request-body-added-optional.js";
import requestBodyAddedRequired from "./request-body-added-required.js";
import requestBodyBecameOptional from "./request-body-became-optional.js";
import requestBodyBecameRequired from "./request-body-became-required.js";
import requestBodyClosed from "./request-body-closed.js";
import requestBodyOpened from "./request-body-opened.js";
import requestBodyRemoved from "./request-body-removed.js";
import requestConstAdded from "./request-const-added.js";
import requestConstChanged from "./request-const-changed.js";
import requestConstRemoved from "./request-const-removed.js";
import requestContainsAdded from "./request-contains-added.js";
import requestContainsRemoved from "./request-contains-removed.js";
import requestContentEncodingChanged from "./request-content-encoding-changed.js";
import requestContentMediaTypeRemoved from "./request-content-media-type-removed.js";
import requestContentSchemaAdded from "./request-content-schema-added.js";
import requestContentSchemaRemoved from "./request-content-schema-removed.js";
import requestDependentRequiredAdded from "./request-dependent-required-added.js";
import requestDependentRequiredRemoved from "./request-dependent-required-removed.js";
import requestDependentSchemasAdded from "./request-dependent-schemas-added.js";
import requestDependentSchemasRemoved from "./request-dependent-schemas-removed.js";
import requestDiscriminatorMappingRemoved from "./request-discriminator-mapping-removed.js";
import requestElseAdded from "./request-else-added.js";
import requestElseRemoved from "./request-else-removed.js";
import requestEnumRemoved from "./request-enum-removed.js";
import requestEnumValueAdded from "./request-enum-value-added.js";
import requestEnumValueRemoved from "./request-enum-value-removed.js";
import requestExtensibleEnumValueAdded from "./request-extensible-enum-value-added.js";
import requestExtensibleEnumValueRemoved from "./request-extensible-enum-value-removed.js";
import requestFormatChanged from "./request-format-changed.js";
import requestFormatGeneralized from "./request-format-generalized.js";
import requestIfAdded from "./request-if-added.js";
import requestIfRemoved from "./request-if-removed.js";
import requestItemsAdded from "./request-items-added.js";
import requestItemsRemoved from "./request-items-removed.js";
import requestLowerBoundAdded from "./request-lower-bound-added.js";
import requestLowerBoundLowered from "./request-lower-bound-lowered.js";
import requestLowerBoundRaised from "./request-lower-bound-raised.js";
import requestLowerBoundRemoved from "./request-lower-bound-removed.js";
import requestMediaSchemaAdded from "./request-media-schema-added.js";
import requestMediaSchemaRemoved from "./request-media-schema-removed.js";
import requestMediaTypeAdded from "./request-media-type-added.js";
import requestMediaTypeRemoved from "./request-media-type-removed.js";
import requestMultipleOfAdded from "./request-multiple-of-added.js";
import requestMultipleOfChanged from "./request-multiple-of-changed.js";
import requestMultipleOfGeneralized from "./request-multiple-of-generalized.js";
import requestNotAdded from "./request-not-added.js";
import requestNotRemoved from "./request-not-removed.js";
import requestParameterAddedOptional from "./request-parameter-added-optional.js";
import requestParameterAddedRequired from "./request-parameter-added-required.js";
import requestParameterBecameOptional from "./request-parameter-became-optional.js";
import requestParameterBecameRequired from "./request-parameter-became-required.js";
import requestParameterDefaultAdded from "./request-parameter-default-added.js";
import requestParameterDefaultChanged from "./request-parameter-default-changed.js";
import requestParameterDefaultRemoved from "./request-parameter-default-removed.js";
import requestParameterDeprecated from "./request-parameter-deprecated.js";
import requestParameterDeprecatedWithoutSunset from "./request-parameter-deprecated-without-sunset.js";
import requestParameterReactivated from "./request-parameter-reactivated.js";
import requestParameterRemoved from "./request-parameter-removed.js";
import requestParameterRemovedAfterSunset from "./request-parameter-removed-after-sunset.js";
import requestParameterSerializationChanged from "./request-parameter-serialization-changed.js";
import requestParameterSunsetBroughtForward from "./request-parameter-sunset-brought-forward.js";
import requestParameterSunsetChanged from "./request-parameter-sunset-changed.js";
import requestParameterSunsetRemoved from "./request-parameter-sunset-removed.js";
import requestPatternAdded from "./request-pattern-added.js";
import requestPatternChanged from "./request-pattern-changed.js";
import requestPatternGeneralized from "./request-pattern-generalized.js";
import requestPatternPropertiesAdded from "./request-pattern-properties-added.js";
import requestPatternPropertiesRemoved from "./request-pattern-properties-removed.js";
import requestPatternRemoved from "./request-pattern-removed.js";
import requestPrefixItemsAdded from "./request-prefix-items-added.js";
import requestPrefixItemsRemoved from "./request-prefix-items-removed.js";
import requestPropertyAccessChanged from "./request-property-access-changed.js";
import requestPropertyAddedOptional from "./request-property-added-optional.js";
import requestPropertyAddedRequired from "./request-property-added-required.js";
import requestPropertyBecameOptional from "./request-property-became-optional.js";
import requestPropertyBecameRequired from "./request-property-became-required.js";
import requestPropertyDefaultChanged from "./request-property-default-changed.js";
import requestPropertyNamesAdded from "./request-property-names-added.js";
import requestPropertyNamesRemoved from "./request-property-names-removed.js";
import requestPropertyRemoved from "./request-property-removed.js";
import requestPropertyRemovedAfterSunset from "./request-property-removed-after-sunset.js";
import requestPropertyRemovedIgnored from "./request-property-removed-ignored.js";
import requestThenAdded from "./request-then-added.js";
import requestThenRemoved from "./request-then-removed.js";
import requestTypeChanged from "./request-type-changed.js";
import requestTypeGeneralized from "./request-type-generalized.js";
import requestUnevaluatedItemsAdded from "./request-unevaluated-items-added.js";
import requestUnevaluatedItemsRemoved from "./request-unevaluated-items-removed.js";
import requestUnevaluatedPropertiesAdded from "./request-unevaluated-properties-added.js";
import requestUnevaluatedPropertiesRemoved from "./request-unevaluated-properties-removed.js";
import requestUnionUnwrapped from "./request-union-unwrapped.js";
import requestUnionWidened from "./request-union-widened.js";
import requestUnionWrapped from "./request-union-wrapped.js";
import requestUniqueItemsAdded from "./request-unique-items-added.js";
import requestUniqueItemsRemoved from "./request-unique-items-removed.js";
import requestUpperBoundAdded from "./request-upper-bound-added.js";
import requestUpperBoundLowered from "./request-upper-bound-lowered.js";
import requestUpperBoundRaised from "./request-upper-bound-raised.js";
import requestUpperBoundRemoved from "./request-upper-bound-removed.js";
import requestVariantAdded from "./request-variant-added.js";
import requestVariantRemoved from "./request-variant-removed.js";
import responseAdditionalPropertiesAdded from "./response-additional-properties-added.js";
import responseAdditionalPropertiesRemoved from "./response-additional-properties-removed.js";
import responseAllOfAdded from "./response-all-of-added.js";
import responseAllOfRemoved from "./response-all-of-removed.js";
import responseBecameEnum from "./response-became-enum.js";
import responseBecameNotNullable from "./response-became-not-nullable.js";
import responseBecameNullable from "./response-became-nullable.js";
import responseBodyOpennessChanged from "./response-body-openness-changed.js";
import responseConstAdded from "./response-const-added.js";
import responseConstChanged from "./response-const-changed.js";
import responseConstRemoved from "./response-const-removed.js";
import responseContainsAdded from "./response-contains-added.js";
import responseContainsRemoved from "./response-contains-removed.js";
import responseContentEncodingChanged from "./response-content-encoding-changed.js";
import responseContentSchemaAdded from "./response-content-schema-added.js";
import responseContentSchemaRemoved from "./response-content-schema-removed.js";
import responseDependentRequiredAdded from "./response-dependent-required-added.js";
import responseDependentRequiredRemoved from "./response-dependent-required-removed.js";
import responseDependentSchemasAdded from "./response-dependent-schemas-added.js";
import responseDependentSchemasRemoved from "./response-dependent-schemas-removed.js";
import responseDiscriminatorMappingAdded from "./response-discriminator-mapping-added.js";
import responseElseAdded from "./response-else-added.js";
import responseElseRemoved from "./response-else-removed.js";
import responseEnumRemoved from "./response-enum-removed.js";
import responseEnumValueAdded from "./response-enum-value-added.js";
import responseEnumValueRemoved from "./response-enum-value-removed.js";
import responseErrorStatusAdded from "./response-error-status-added.js";
import responseErrorStatusRemoved from "./response-error-status-removed.js";
import responseExtensibleEnumValueAdded from "./response-extensible-enum-value-added.js";
import responseExtensibleEnumValueRemoved from "./response-extensible-enum-value-removed.js";
import responseFormatChanged from "./response-format-changed.js";
import responseFormatSpecialized from "./response-format-specialized.js";
import responseHeaderAdded from "./response-header-added.js";
import responseHeaderBecameOptional from "./response-header-became-optional.js";
import responseHeaderBecameRequired from "./response-header-became-required.js";
import responseHeaderRemovedOptional from "./response-header-removed-optional.js";
import responseHeaderRemovedRequired from "./response-header-removed-required.js";
import responseIfAdded from "./response-if-added.js";
import responseIfRemoved from "./response-if-removed.js";
import responseItemsAdded from "./response-items-added.js";
import responseItemsRemoved from "./response-items-removed.js";
import responseLowerBoundAdded from "./response-lower-bound-added.js";
import responseLowerBoundLowered from "./response-lower-bound-lowered.js";
import responseLowerBoundRaised from "./response-lower-bound-raised.js";
import responseLowerBoundRemoved from "./response-lower-bound-removed.js";
import responseMediaSchemaAdded from "./response-media-schema-added.js";
import responseMediaSchemaRemoved from "./response-media-schema-removed.js";
import responseMediaTypeAdded from "./response-media-type-added.js";
import responseMediaTypeRemoved from "./response-media-type-removed.js";
import responseMultipleOfChanged from "./response-multiple-of-changed.js";
import responseMultipleOfRemoved from "./response-multiple-of-removed.js";
import responseMultipleOfSpecialized from "./response-multiple-of-specialized.js";
import responseNotAdded from "./response-not-added.js";
import responseNotRemoved from "./response-not-removed.js";
import responseOptionalPropertyRemoved from "./response-optional-property-removed.js";
import responsePatternAdded from "./response-pattern-added.js";
import responsePatternChanged from "./response-pattern-changed.js";
import responsePatternPropertiesAdded from "./response-pattern-properties-added.js";
import responsePatternPropertiesRemoved from "./response-pattern-properties-removed.js";
import responsePatternRemoved from "./response-pattern-removed.js";
import responsePatternSpecialized from "./response-pattern-specialized.js";
import responsePrefixItemsAdded from "./response-prefix-items-added.js";
import responsePrefixItemsRemoved from "./response-prefix-items-removed.js";
import responsePropertyAccessChanged from "./response-property-access-changed.js";
import responsePropertyAdded from "./response-property-added.js";
import responsePropertyBecameNotWriteOnly from "./response-property-became-not-write-only.js";
import responsePropertyBecameOptional from "./response-property-became-optional.js";
import responsePropertyBecameRequired from "./response-property-became-required.js";
import responsePropertyNamesAdded from "./response-property-names-added.js";
import responsePropertyNamesRemoved from "./response-property-names-removed.js";
import responsePropertyRemoved from "./response-property-removed.js";
import responsePropertyRemovedAfterSunset from "./response-property-removed-after-sunset.js";
import responseSuccessStatusAdded from "./response-success-status-added.js";
import responseSuccessStatusChanged from "./response-success-status-changed.js";
import responseSuccessStatusRemoved from "./response-success-status-removed.js";
import responseThenAdded from "./response-then-added.js";
import responseThenRemoved from "./response-then-removed.js";
import responseTypeChanged from "./response-type-changed.js";
import responseTypeSpecialized from "./response-type-specialized.js";
import responseUnevaluatedItemsAdded from "./response-unevaluated-items-added.js";
import responseUnevaluatedItemsRemoved from "./response-unevaluated-items-removed.js";
import responseUnevaluatedPropertiesAdded from "./response-unevaluated-properties-added.js";
import responseUnevaluatedPropertiesRemoved from "./response-unevaluated-properties-removed.js";
import responseUnionUnwrapped from "./response-union-unwrapped.js";
import responseUnionWrapped from "./response-union-wrapped.js";
import responseUniqueItemsAdded from "./response-unique-items-added.js";
import responseUniqueItemsRemoved from "./response-unique-items-removed.js";
import responseUpperBoundAdded from "./response-upper-bound-added.js";
import responseUpperBoundLowered from "./response-upper-bound-lowered.js";
import responseUpperBoundRaised from "./response-upper-bound-raised.js";
import responseUpperBoundRemoved from "./response-upper-bound-removed.js";
import responseVariantAdded from "./response-variant-added.js";
import responseVariantRemoved from "./response-variant-removed.js";
import securityAlternativeAdded from "./security-alternative-added.js";
import securityAnonymousAdded from "./security-anonymous-added.js";
import securityAnonymousRemoved from "./security-anonymous-removed.js";
import securityRequirementAdded from "./security-requirement-added.js";
import securityRequirementRemoved from "./security-requirement-removed.js";
import securitySchemeAdded from "./security-scheme-added.js";
import securitySchemeChanged from "./security-scheme-changed.js";
import securitySchemeRemoved from "./security-scheme-removed.js";
import securityScopeAdded from "./security-scope-added.js";
import securityScopeRemoved from "./security-scope-removed.js";
import webhookAdded from "./webhook-added.js";
import webhookRemoved from "./webhook-removed.js";

/** @type {readonly import("./rule.js").Rule[]} */
export const RULES = Object.freeze([
  operationAdded,
  operationRemoved,
  operationRemovedAfterSunset,
  operationDeprecated,
  operationDeprecatedWithoutSunset,
  operationSunsetTooSoon,
  operationSunsetInvalid,
  operationReactivated,
  operationSunsetRemoved,
  operationSunsetBroughtForward,
  operationSunsetChanged,
  operationStabilityDecreased,
  operationStabilityIncreased,
  operationStabilityInvalid,
  operationIdChanged,
  operationTagAdded,
  operationTagRemoved,
  webhookAdded,
  webhookRemoved,
  callbackAdded,
  callbackRemoved,
  paginationAdded,
  paginationRemoved,
  paginationChanged,
  securityAlternativeAdded,
  securityRequirementAdded,
  securityRequirementRemoved,
  securityAnonymousRemoved,
  securityAnonymousAdded,
  securityScopeAdded,
  securityScopeRemoved,
  securitySchemeAdded,
  securitySchemeRemoved,
  securitySchemeChanged,
  componentSchemaRemoved,
  requestParameterAddedRequired,
  requestParameterAddedOptional,
  requestParameterRemoved,
  requestParameterRemovedAfterSunset,
  requestParameterBecameRequired,
  requestParameterBecameOptional,
  requestParameterDeprecated,
  requestParameterDeprecatedWithoutSunset,
  requestParameterReactivated,
  requestParameterSunsetRemoved,
  requestParameterSunsetBroughtForward,
  requestParameterSunsetChanged,
  requestParameterSerializationChanged,
  requestParameterDefaultChanged,
  requestParameterDefaultRemoved,
  requestParameterDefaultAdded,
  requestBodyAddedRequired,
  requestBodyAddedOptional,
  requestBodyRemoved,
  requestBodyBecameRequired,
  requestBodyBecameOptional,
  requestMediaTypeAdded,
  requestMediaTypeRemoved,
  responseMediaTypeAdded,
  responseMediaTypeRemoved,
  requestMediaSchemaAdded,
  requestMediaSchemaRemoved,
  responseMediaSchemaAdded,
  responseMediaSchemaRemoved,
  responseSuccessStatusAdded,
  responseSuccessStatusRemoved,
  responseSuccessStatusChanged,
  responseErrorStatusAdded,
  responseErrorStatusRemoved,
  responseHeaderAdded,
  responseHeaderRemovedRequired,
  responseHeaderRemovedOptional,
  responseHeaderBecameOptional,
  responseHeaderBecameRequired,
  requestTypeChanged,
  requestTypeGeneralized,
  responseTypeChanged,
  responseTypeSpecialized,
  requestBecameNotNullable,
  requestBecameNullable,
  responseBecameNullable,
  responseBecameNotNullable,
  requestFormatChanged,
  requestFormatGeneralized,
  responseFormatChanged,
  responseFormatSpecialized,
  requestEnumValueRemoved,
  requestEnumValueAdded,
  requestBecameEnum,
  requestEnumRemoved,
  responseEnumValueAdded,
  responseEnumValueRemoved,
  responseBecameEnum,
  responseEnumRemoved,
  requestExtensibleEnumValueRemoved,
  requestExtensibleEnumValueAdded,
  responseExtensibleEnumValueAdded,
  responseExtensibleEnumValueRemoved,
  requestConstAdded,
  requestConstRemoved,
  requestConstChanged,
  responseConstAdded,
  responseConstRemoved,
  responseConstChanged,
  requestUpperBoundAdded,
  requestUpperBoundLowered,
  requestUpperBoundRaised,
  requestUpperBoundRemoved,
  requestLowerBoundAdded,
  requestLowerBoundRaised,
  requestLowerBoundLowered,
  requestLowerBoundRemoved,
  responseUpperBoundRaised,
  responseUpperBoundRemoved,
  responseUpperBoundLowered,
  responseUpperBoundAdded,
  responseLowerBoundLowered,
  responseLowerBoundRemoved,
  responseLowerBoundRaised,
  responseLowerBoundAdded,
  requestMultipleOfAdded,
  requestMultipleOfChanged,
  requestMultipleOfGeneralized,
  responseMultipleOfRemoved,
  responseMultipleOfChanged,
  responseMultipleOfSpecialized,
  requestUniqueItemsAdded,
  requestUniqueItemsRemoved,
  responseUniqueItemsRemoved,
  responseUniqueItemsAdded,
  requestPatternAdded,
  requestPatternRemoved,
  requestPatternGeneralized,
  requestPatternChanged,
  responsePatternAdded,
  responsePatternRemoved,
  responsePatternChanged,
  responsePatternSpecialized,
  requestContentEncodingChanged,
  requestContentMediaTypeRemoved,
  responseContentEncodingChanged,
  requestPropertyAddedRequired,
  requestPropertyAddedOptional,
  requestPropertyRemoved,
  requestPropertyRemovedIgnored,
  requestPropertyRemovedAfterSunset,
  responsePropertyAdded,
  responsePropertyRemoved,
  responseOptionalPropertyRemoved,
  responsePropertyRemovedAfterSunset,
  requestPropertyBecameRequired,
  requestPropertyBecameOptional,
  responsePropertyBecameOptional,
  responsePropertyBecameRequired,
  requestPropertyAccessChanged,
  responsePropertyAccessChanged,
  propertyWriteOnlyChanged,
  responsePropertyBecameNotWriteOnly,
  requestBodyClosed,
  requestBodyOpened,
  responseBodyOpennessChanged,
  requestAllOfAdded,
  requestAllOfRemoved,
  responseAllOfAdded,
  responseAllOfRemoved,
  allOfAnnotationChanged,
  requestVariantAdded,
  requestVariantRemoved,
  responseVariantAdded,
  responseVariantRemoved,
  requestUnionWrapped,
  requestUnionWidened,
  responseUnionWrapped,
  requestUnionUnwrapped,
  responseUnionUnwrapped,
  discriminatorChanged,
  discriminatorPropertyNameChanged,
  requestDiscriminatorMappingRemoved,
  responseDiscriminatorMappingAdded,
  requestPropertyDefaultChanged,
  defaultDocumentedOrDropped,
  requestPrefixItemsAdded,
  requestPrefixItemsRemoved,
  responsePrefixItemsAdded,
  responsePrefixItemsRemoved,
  requestItemsAdded,
  requestItemsRemoved,
  responseItemsAdded,
  responseItemsRemoved,
  requestAdditionalPropertiesAdded,
  requestAdditionalPropertiesRemoved,
  responseAdditionalPropertiesAdded,
  responseAdditionalPropertiesRemoved,
  requestContainsAdded,
  requestContainsRemoved,
  responseContainsAdded,
  responseContainsRemoved,
  requestPropertyNamesAdded,
  requestPropertyNamesRemoved,
  responsePropertyNamesAdded,
  responsePropertyNamesRemoved,
  requestUnevaluatedPropertiesAdded,
  requestUnevaluatedPropertiesRemoved,
  responseUnevaluatedPropertiesAdded,
  responseUnevaluatedPropertiesRemoved,
  requestUnevaluatedItemsAdded,
  requestUnevaluatedItemsRemoved,
  responseUnevaluatedItemsAdded,
  responseUnevaluatedItemsRemoved,
  requestContentSchemaAdded,
  requestContentSchemaRemoved,
  responseContentSchemaAdded,
  responseContentSchemaRemoved,
  requestIfAdded,
  requestIfRemoved,
  responseIfAdded,
  responseIfRemoved,
  requestThenAdded,
  requestThenRemoved,
  responseThenAdded,
  responseThenRemoved,
  requestElseAdded,
  requestElseRemoved,
  responseElseAdded,
  responseElseRemoved,
  requestNotAdded,
  requestNotRemoved,
  responseNotAdded,
  responseNotRemoved,
  requestDependentSchemasAdded,
  requestDependentSchemasRemoved,
  responseDependentSchemasAdded,
  responseDependentSchemasRemoved,
  requestPatternPropertiesAdded,
  requestPatternPropertiesRemoved,
  responsePatternPropertiesAdded,
  responsePatternPropertiesRemoved,
  requestDependentRequiredAdded,
  requestDependentRequiredRemoved,
  responseDependentRequiredAdded,
  responseDependentRequiredRemoved,
  ...PROPERTY_MARK_RULES,
]);
