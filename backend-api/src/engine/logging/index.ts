export {
  createLogger,
  createSilentLogger,
  REDACTED_LOG_KEYS,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from './logger.js';
