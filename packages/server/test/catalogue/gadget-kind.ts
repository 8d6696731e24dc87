import { defineKind } from '../../src/catalogue/catalogue.ts'

/*
 * A resource kind that exists only in this test: its data, defined when this module is first
 * imported, before any module that derives lists from the catalogue is loaded (a test imports
 * it first, as a side effect). Its parts are added by `defineGadgetParts`.
 */

defineKind({
  name: 'gadget',
  prefix: 'gdt',
  readScope: 'project:read',
  indexed: true,
  standalone: true,
  search: { bodyField: 'notes' },
  noun: 'gadget',
  plural: 'gadgets',
})
