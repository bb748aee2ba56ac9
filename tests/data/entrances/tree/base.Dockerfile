# A fragment named *.Dockerfile, with both spellings of the suppression comment.
RUN apt-get install -y build-essential
# boxlint: ignore=pip-no-cache-dir -- the cache is wiped in the next layer
RUN pip install wheel
# boxlint ignore=sudo-usage
RUN sudo apt-get install -y git
# boxlint: ignore=curl-pipe-shell
RUN echo unused suppression
ADD https://example.com/a.tgz /opt/
