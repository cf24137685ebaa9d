import "reflect-metadata";

process.env.LOG_LEVEL ??= "silent";
