import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isLoopbackHost } from './loopback.ts'

const host = (url: string) => new URL(url).hostname

test('localhost, 127.0.0.0/8 and ::1 are loopback, however the URL spells them', () => {
  for (const url of [
    'http://localhost',
    'http://LOCALHOST:8080',
    'http://127.0.0.1',
    'http://127.255.0.9',
    'http://2130706433',
    'http://[::1]:80',
    'http://[0:0:0:0:0:0:0:1]',
  ]) {
    assert.ok(isLoopbackHost(host(url)), url)
  }
})

test('every other host is not', () => {
  for (const url of [
    'http://10.0.0.1',
    'http://128.0.0.1',
    'http://[::2]',
    'http://localhost.example',
    'http://127.0.0.1.example',
    'http://example.com',
    'http://[::ffff:10.0.0.1]',
  ]) {
    assert.ok(!isLoopbackHost(host(url)), url)
  }
})
