import type { Principal } from './principal.ts'

/**
 * Whether the principal administers its workspace: owners and admins manage every token and app
 * grant of the workspace and read the audit log. Administering opens no content: private
 * projects, canvases and objectives stay closed to them like to anyone else (docs/permissions.md).
 */
export function canAdminister(principal: Principal): boolean {
  return principal.role === 'owner' || principal.role === 'admin'
}
