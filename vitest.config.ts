import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // The build is current before tests run: those that spawn `mentor-admin` or the sandbox run it.
    globalSetup: ['./tests/helpers/build.ts'],
    pool: 'forks',
    // Generous: suites start real servers and browsers on a small shared machine; slowness is not the failure here.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: in a full run on two loaded cores a screen can take longer to answer.
    expect: { poll: { timeout: 10_000 } },
    // Two cores here: keep the number of Chromium and server processes bounded.
    maxWorkers: 2,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
