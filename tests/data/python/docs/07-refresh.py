import time

while tpl.refresh().status == "building":
    time.sleep(5)
