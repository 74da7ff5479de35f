/** Every resource the kit serves, by kind. Adding a simple resource is one declaration file and one line here. */
import { z } from 'zod';
import { apiTokens } from './api-tokens';
import { billing } from './billing';
import { branding } from './branding';
import { courses, enrollments, pathways, programEnrollments, programs } from './catalogue';
import { credentials, integrationCredentials } from './credentials';
import { domains } from './domains';
import { departmentMembers, departments, userGroupMembers, userGroups } from './groups';
import { mentorLlms, tenantLlms } from './llms';
import { mentorPublicSettings, mentorSettings } from './mentor-settings';
import { assumedKnowledge, availableTools, customInstruction, mentorTools } from './mentor-knowledge';
import { ltiKeys } from './lti-keys';
import { mentorMemorySettings } from './memory';
import { mentorAutoMemoryPrompt, mentorCourseLink, mentorScenarios } from './mentor-guidance';
import { ltiTools } from './lti-tools';
import { callConfigurations, categoryGroups, mcpServers, voices } from './mentor-config';
import { mentorAudiences, mentorCategories, mentorTypes, subjects } from './mentor-catalogue';
import { orgMetadata } from './org-metadata';
import { rbacGroups, rbacPolicies, rbacRoles } from './rbac';
import { siteConfig } from './site-config';
import { users } from './users';
import {
  accessRequests,
  courseLicenseAssignments,
  courseLicenseGroupAssignments,
  courseLicenses,
  licenseAssignments,
  licenseGroupAssignments,
  licenses,
  programLicenseAssignments,
  programLicenseGroupAssignments,
  platformLicenses,
  programLicenses,
} from './licences';
import { courseGroupSuggestions, courseReviews, courseSuggestions, programReviews } from './learning';
import type { ResourceDeclaration } from './kit';

export * from './kit';
export * from './spec';
export * from './images';
export * from './secrets';
export * from './csv';
export * from './referrers';
export * from './mentor-settings';
export * from './mentor-knowledge';
export * from './membership';
export * from './memory';
export * from './licences';
export * from './grant';

export const RESOURCES = {
  'api-tokens': apiTokens,
  domains,
  'lti-keys': ltiKeys,
  'lti-tools': ltiTools,
  'org-metadata': orgMetadata,
  branding,
  'site-config': siteConfig,
  billing,
  credentials,
  'integration-credentials': integrationCredentials,
  'tenant-llms': tenantLlms,
  'mentor-llms': mentorLlms,
  users,
  departments,
  'department-members': departmentMembers,
  'user-groups': userGroups,
  'user-group-members': userGroupMembers,
  'rbac-roles': rbacRoles,
  'rbac-policies': rbacPolicies,
  'rbac-groups': rbacGroups,
  'mcp-servers': mcpServers,
  'call-configurations': callConfigurations,
  'category-groups': categoryGroups,
  voices,
  'mentor-audiences': mentorAudiences,
  'mentor-categories': mentorCategories,
  'mentor-types': mentorTypes,
  subjects,
  'mentor-settings': mentorSettings,
  'mentor-public-settings': mentorPublicSettings,
  'custom-instruction': customInstruction,
  'assumed-knowledge': assumedKnowledge,
  'mentor-tools': mentorTools,
  'available-tools': availableTools,
  'mentor-memory-settings': mentorMemorySettings,
  'mentor-course-link': mentorCourseLink,
  'mentor-scenarios': mentorScenarios,
  'mentor-auto-memory-prompt': mentorAutoMemoryPrompt,
  licenses,
  'course-licenses': courseLicenses,
  'program-licenses': programLicenses,
  'platform-licenses': platformLicenses,
  'license-assignments': licenseAssignments,
  'course-license-assignments': courseLicenseAssignments,
  'program-license-assignments': programLicenseAssignments,
  'license-group-assignments': licenseGroupAssignments,
  'course-license-group-assignments': courseLicenseGroupAssignments,
  'program-license-group-assignments': programLicenseGroupAssignments,
  'access-requests': accessRequests,
  courses,
  pathways,
  programs,
  enrollments,
  'program-enrollments': programEnrollments,
  'course-suggestions': courseSuggestions,
  'course-group-suggestions': courseGroupSuggestions,
  'course-reviews': courseReviews,
  'program-reviews': programReviews,
} as const satisfies Record<string, ResourceDeclaration>;

export type ResourceKind = keyof typeof RESOURCES;
export const RESOURCE_KINDS = Object.keys(RESOURCES) as [ResourceKind, ...ResourceKind[]];
export const ResourceKind = z.enum(RESOURCE_KINDS);

export function declarationOf(kind: ResourceKind): ResourceDeclaration {
  return RESOURCES[kind];
}

export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RESOURCES, value);
}
export * from './history';
export * from './model-offer';
