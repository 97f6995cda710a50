import type { Rule } from "../rule";
import { callNameDuplicate, callUrlMissing, presignCredential, urlHostTemplated, urlScheme } from "./calls";
import { configOrderUnknown, schemaInvalid } from "./config";
import { eventsFromToolNeedsAgent, eventsMissingOutput, eventsOrder, eventsUnknownOutput } from "./events";
import { consumerWithoutExchange, exchangeIncomplete, exchangeWithoutConsumer, maxTurnsRange, stuckAfterRepeatsRange } from "./exchange";
import { instructionsRepeatDescriptions, instructionsTooLong } from "./instructions";
import { callbackKind } from "./kind";
import { nameDuplicate, nodeNameMismatch, titleDuplicate, toolNameVerb } from "./names";
import { methodRequiredUnknown, serviceCallStreams, serviceMethodDuplicate, serviceMethodMissing, serviceMethodUnlisted } from "./services";
import { credentialsScope, credentialUnknown, templateSyntax, templateUnknownCall, templateUnknownConfig, templateUnknownRoot } from "./templates";
import { testConfigMismatch, testInputsUnknown, testParamsMismatch, testUnknownMethod } from "./tests";

/** Every lint rule that looks at a node's manifests, in the order they are documented. */
export const nodeRules: readonly Rule[] = [
  callbackKind,
  serviceMethodMissing,
  serviceMethodUnlisted,
  serviceMethodDuplicate,
  serviceCallStreams,
  methodRequiredUnknown,
  consumerWithoutExchange,
  exchangeWithoutConsumer,
  exchangeIncomplete,
  maxTurnsRange,
  stuckAfterRepeatsRange,
  instructionsTooLong,
  instructionsRepeatDescriptions,
  templateSyntax,
  templateUnknownRoot,
  credentialsScope,
  credentialUnknown,
  templateUnknownConfig,
  templateUnknownCall,
  callNameDuplicate,
  callUrlMissing,
  urlHostTemplated,
  urlScheme,
  presignCredential,
  eventsMissingOutput,
  eventsUnknownOutput,
  eventsOrder,
  eventsFromToolNeedsAgent,
  configOrderUnknown,
  schemaInvalid,
  testConfigMismatch,
  testUnknownMethod,
  testParamsMismatch,
  testInputsUnknown,
  nodeNameMismatch,
  nameDuplicate,
  titleDuplicate,
  toolNameVerb,
];
