from django.urls import path

from realtime.relay import relay

urlpatterns = [path("realtime/relay/", relay, name="realtime-relay")]
