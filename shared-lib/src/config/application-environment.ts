/** The deployment stage an application runs in; some settings (ACP execution profiles, URL rules) depend on it. */
export enum APPLICATION_ENVIRONMENT {
  DEVELOPMENT = 'DEVELOPMENT',
  STAGING = 'STAGING',
  PRODUCTION = 'PRODUCTION',
}
