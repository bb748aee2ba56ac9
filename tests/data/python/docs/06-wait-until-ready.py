try:
    tpl.wait_until_ready(timeout=600)
except BuildFailedError as exc:
    print(f"build failed: {exc.error_message}")
except TimeoutError:
    print("build did not finish in time")
