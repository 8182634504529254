/**
 * The device classes a scan's `device` is always one of (ARCHITECTURE.md; src/redirect/user-agent.ts maps
 * ua-parser-js's device types onto them). A copy, as analytics' filters keep one: routing sits on a floor below the
 * redirect and cannot import it. A unit test (test/unit/routing-parse.test.ts) keeps the two lists equal.
 */
export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop', 'smarttv', 'console', 'wearable', 'embedded', 'unknown'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
