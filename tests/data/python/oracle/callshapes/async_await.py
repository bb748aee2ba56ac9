# Awaited calls of the async client, across lines, inside `async with`.
import asyncio

from budai import AsyncBudClient


async def main():
    async with AsyncBudClient() as client:
        tpl = await client.code_interpreter.templates.create(
            name="async-tpl",
            commands=["RUN pip install pandas", "COPY x /y"],
            cpu_count=2,
            memory_mb=4096,
        )
        await tpl.wait_until_ready(timeout=600)
        await client.agents.add_code_interpreter("prm_1", template_id=tpl.id, version=0)


asyncio.run(main())
