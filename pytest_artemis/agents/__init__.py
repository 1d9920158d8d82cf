"""The three model-driven agents (planner, operator, checker): prompts, reply schemas, and code rules."""
